"""Small analysis cases in the style of MLIR's One-Shot analysis tests (tests/parity/,
written for bufferlog: iter_args exchanged by scf.for / scf.while, matching and
mismatching insert_slice, slices of slices, calls returning or writing their arguments,
read-only arguments, tensor.empty with several uses, linalg.generic with one tensor in
ins and outs, scf.if yielding different buffers, to_buffer / to_tensor): bufferlog's
in-place decisions equal mlir-opt-22's op by op, and `bufferize` (with deallocation)
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
    from tests.sweep import bufferize_text
except ImportError:  # tests/ on sys.path
    import oracle
    from sweep import bufferize_text

CASES = sorted((Path(__file__).parent / "parity").glob("*.mlir"))
pytestmark = [pytest.mark.oracle,
              pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")]


def ours(path: Path) -> list:
    _, an, dec = analyze_module(parse(path.read_text(), str(path)), engine="embedded")
    ann = operand_annotations(an, dec)
    return [(an.name[o], ann[o]) for o in sorted(ann, key=lambda o: an.loc[o][1:])]


def test_at_least_fifteen_cases():
    assert len(CASES) >= 15


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_decisions_equal_mlir_opt(path: Path):
    want = oracle.inplace_decisions(oracle.reference_analysis(path.read_text()))
    assert want and ours(path) == want


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_bufferized_output_verifies(path: Path):
    out = print_module(bufferize(parse(path.read_text(), str(path)), "oneshot", True, engine="embedded"))
    assert "tensor<" not in out.replace("tensor<*", "")
    oracle.mlir_opt(out)  # raises OracleError when mlir-opt rejects it


@pytest.mark.skipif(not oracle.available(), reason="mlir-runner-22 missing")
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("path", [p for p in CASES if p.stem.startswith("run_")], ids=lambda p: p.stem)
def test_runs_like_semantic_reference(path: Path, strategy: str):
    """Programs with a ``@main``: bufferized with deallocation, they print what the
    copy-before-write reference prints (its deallocation pipeline refuses CFG loops, so
    the reference runs without), leak-free."""
    text = path.read_text()
    ref = oracle.run_semantic(text, dealloc=False)
    assert ref.returncode == 0 and ref.data.strip(), ref.stderr[-2000:]
    got = oracle.run_program(bufferize_text(text, strategy))
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.data == ref.data
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0)
