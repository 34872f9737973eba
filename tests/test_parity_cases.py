"""Small analysis cases in the style of MLIR's One-Shot analysis tests (tests/parity/,
written for bufferlog: iter_args exchanged by scf.for / scf.while, matching and
mismatching insert_slice, slices of slices, calls returning or writing their arguments,
read-only arguments, tensor.empty with several uses, linalg.generic with one tensor in
ins and outs, scf.if yielding different buffers, to_buffer / to_tensor): bufferlog's
in-place decisions equal mlir-opt-22's op by op (except ``CFG_CONSERVATIVE``), and `bufferize` (with deallocation)
emits IR that mlir-opt-22 accepts. benchmarks/bench_parity.py counts them with every
other analysis case."""

from __future__ import annotations

from pathlib import Path

import pytest
from bufferlog.backend.bufferize import bufferize
from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

CASES = sorted((Path(__file__).parent / "parity").glob("*.mlir"))
pytestmark = [pytest.mark.oracle,
              pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")]


#: cases of docs/analysis.md's CFG_CONSERVATIVE class: a write in a later block into a
#: value defined by a dominating block's argument, read afterwards, goes out of place
#: (mlir-opt 22's exemption there miscompiles tests/miscompiles/write_in_later_block_of_entry_arg)
CFG_CONSERVATIVE = {"cf_loop_on_empty"}


def ours(path: Path) -> list:
    _, an, dec = analyze_module(parse(path.read_text(), str(path)), engine="embedded")
    ann = operand_annotations(an, dec)
    return [(an.name[o], ann[o]) for o in sorted(ann, key=lambda o: an.loc[o][1:])]


def test_at_least_fifteen_cases():
    assert len(CASES) >= 15


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_decisions_equal_mlir_opt(path: Path):
    want, got = oracle.inplace_decisions(oracle.reference_analysis(path.read_text())), ours(path)
    assert want
    if path.stem in CFG_CONSERVATIVE:  # same ops; bufferlog copies at least as often
        assert [n for n, _ in got] == [n for n, _ in want] and got != want
        assert sum(v.count("false") for _, v in got) >= sum(v.count("false") for _, v in want)
    else:
        assert got == want


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_bufferized_output_verifies(path: Path):
    out = print_module(bufferize(parse(path.read_text(), str(path)), "oneshot", True, engine="embedded"))
    assert "tensor<" not in out.replace("tensor<*", "")
    oracle.mlir_opt(out)  # raises OracleError when mlir-opt rejects it
