"""Hoisting allocations out of scf.if branches (backend/plan_hoist.py,
``bufferize --hoist-to-dominator``): the hoisted program prints mlir-opt's values (the
semantic reference), frees everything exactly once, and makes no more heap allocations
and holds no more bytes at once than without hoisting (mlir-runner-22 with the counting
allocator); the cases that would raise the peak are left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from bufferlog.core.records import replace

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

from bufferlog.backend.plan import PlanOptions
from bufferlog.frontend.printer import print_module

from bufferlog.api import bufferize

HERE = Path(__file__).parent
PROGRAM = HERE / "memplan" / "hoist_branches.mlir"
needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")


def _ours(plan: PlanOptions):
    b = bufferize(PROGRAM.read_text(), strategy="oneshot", plan=plan)
    return print_module(b.module), b.plan


def _if_allocs(ir: str) -> list[int]:
    """For each scf.if of the output, the memref.alloc ops inside it (one level)."""
    out, depth, count = [], 0, None
    for line in ir.splitlines():
        if " scf.if " in line:
            count, depth = 0, 1
            continue
        if count is not None:
            depth += line.count("{") - line.count("}")
            count += "memref.alloc()" in line
            if depth == 0:
                out.append(count)
                count = None
    return out


def test_pairs_in_both_branches_are_hoisted_others_stay():
    ir, st = _ours(PlanOptions(hoist_to_dominator=True))
    assert st.hoisted == 2
    # %r1 and %r2: nothing left in the branches; %r3 (one branch only) and %r4 (a local
    # temporary followed by another allocation) keep theirs
    assert _if_allocs(ir) == [0, 0, 1, 4]
    assert _if_allocs(_ours(PlanOptions())[0]) == [2, 2, 1, 4]


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("plan", ["hoist", "all"])
def test_hoisted_program_runs_as_mlir_opt_and_holds_no_more(plan):
    on = PlanOptions(hoist_to_dominator=True) if plan == "hoist" else PlanOptions.all()
    ref = oracle.run_semantic(PROGRAM.read_text())
    base = oracle.run_program(_ours(replace(on, hoist_to_dominator=False))[0])
    ir, _ = _ours(on)
    r = oracle.run_program(ir)
    assert r.clean and base.clean, (r.live, r.double_frees, r.bad_frees, r.stderr[-800:])
    assert r.data == ref.data
    assert r.allocs <= base.allocs and r.peak_bytes <= base.peak_bytes, (r.allocs, base.allocs,
                                                                         r.peak_bytes, base.peak_bytes)
    if plan == "all":  # the hoisted local temporary of %r2 is small: the stack
        assert "memref.alloca() : memref<16xf32>" in ir
