"""Parity cases of our own for each kind of input where bufferlog once disagreed with
mlir-opt-22 (tests/parity_classes): ops described by user rules next to tensor code,
affine custom syntax, `arith.index_cast` and `vector.gather` on tensors, memory spaces,
loops that pass their own carried value on, and the decisions bufferlog once made less
conservatively than mlir-opt (the region arguments of unknown ops, an external
function's results, recursive functions).

Every file: bufferlog's in-place decisions equal mlir-opt-22's op by op, with the
One-Shot options of its ``// one-shot:`` line and the rules directory of its ``// rules:``
line (benchmarks/bench_parity.py counts them as the ``classes`` suite). The ``run_*``
files have a ``@main``: bufferized by bufferlog and run under mlir-runner-22 with the
counting allocator, they print what mlir-opt-22's copy-before-write reference prints.
Unknown ops and external functions cannot run as written, so the run gives them one
behaviour each, the same in bufferlog's output and in the reference's input: an unknown
op runs its region once on its operand (the region is inlined), and an external function
is linked with bodies that return its argument, a fresh copy or both, or write it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.engine.options import parse_pass_options
from bufferlog.frontend.parser import parse

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

HERE = Path(__file__).parent / "parity_classes"
REPO = Path(__file__).resolve().parent.parent
CASES = sorted(HERE.glob("*.mlir"))
BOUNDARIES = "bufferize-function-boundaries"
pytestmark = [pytest.mark.oracle,
              pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")]
needs_runner = pytest.mark.skipif(not oracle.available(), reason="mlir-runner-22 missing")


def one_shot(text: str) -> str:
    """The One-Shot options of a case: its ``// one-shot:`` line, else function boundaries."""
    m = re.search(r"^// one-shot: (.*)$", text, re.M)
    return m.group(1).strip() if m else BOUNDARIES


def rules_of(text: str) -> Path | None:
    m = re.search(r"^// rules: (\S+)$", text, re.M)
    return REPO / m.group(1) if m else None


def ours(text: str, name: str) -> list:
    # the string means what it means to mlir-opt (what it leaves out: mlir-opt's defaults)
    _, an, dec = analyze_module(parse(text, name), engine="embedded", rules_dir=rules_of(text),
                                options=parse_pass_options(one_shot(text)))
    ann = operand_annotations(an, dec)
    return [(an.name[o], ann[o]) for o in sorted(ann, key=lambda o: an.loc[o][1:])]


def theirs(text: str) -> list:
    osb = f"{one_shot(text)} test-analysis-only allow-return-allocs-from-loops"
    # vector.mask's custom form hides its yield, and the yield's decision with it
    generic = ["--mlir-print-op-generic"] if "vector.mask" in text else []
    return oracle.inplace_decisions(oracle.mlir_opt(text, "--allow-unregistered-dialect",
                                                    f"--one-shot-bufferize={osb}", *generic))


def test_every_class_has_cases():
    stems = [p.stem for p in CASES]
    for prefix in ("userop_", "affine_", "index_cast_", "gather_", "space_", "loop_", "while_",
                   "unknown_", "external_", "recursive_"):
        assert any(s.startswith(prefix) or s.startswith("run_" + prefix) for s in stems), prefix


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_decisions_equal_mlir_opt(path: Path):
    text = path.read_text()
    want = theirs(text)
    assert want and ours(text, str(path)) == want
