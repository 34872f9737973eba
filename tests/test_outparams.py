"""Out-parameters for private functions (backend/plan_outparams.py, docs/memory-planning.md):
which results qualify, and programs that still print mlir-opt's values with nothing live
and fewer heap allocations."""

from __future__ import annotations

from pathlib import Path

import pytest

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

from bufferlog.backend.bufferize import bufferize
from bufferlog.backend.plan import PlanOptions
from bufferlog.backend.plan_outparams import out_params
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module

HERE = Path(__file__).parent / "outparams"
needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")

MEMREF = """
func.func {vis}@f(%x: f32) -> (memref<4xf32>, memref<4xf32>) {{
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<4xf32>)
  {extra}
  return %a, {second} : memref<4xf32>, memref<4xf32>
}}
func.func @g(%x: f32) -> memref<4xf32> {{
  %r:2 = call @f(%x) : (f32) -> (memref<4xf32>, memref<4xf32>)
  return %r#1 : memref<4xf32>
}}
"""


def rewritten(vis="private ", extra="", second="%b", tail="") -> tuple[int, str]:
    m = parse(MEMREF.format(vis=vis, extra=extra, second=second) + tail, "t.mlir")
    n = out_params(m)
    return n, print_module(m)


def test_fresh_results_of_a_private_function_move_to_the_caller() -> None:
    n, out = rewritten()
    assert n == 2
    assert "func.func private @f(%x: f32, %0: memref<4xf32>, %1: memref<4xf32>) {" in out
    assert out.count("memref.alloc()") == 2 and "call @f(%x, %0, %1)" in out


@pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
@pytest.mark.oracle
def test_rewritten_module_verifies() -> None:
    oracle.mlir_opt(rewritten()[1])


@pytest.mark.parametrize(("kw", "left"), [
    ({"vis": ""}, 0),  # public: ABI kept
    ({"second": "%a"}, 0),  # one buffer returned twice: neither result
    ({"tail": 'func.func @h() -> () attributes {ref = @f} { return }'}, 0),  # symbol escapes
])
def test_results_that_must_stay(kw, left) -> None:
    n, out = rewritten(**kw)
    assert n == left, out


def test_a_buffer_that_leaves_another_way_stays_a_result() -> None:
    """%a's view is also passed to a call returning a memref (the callee may return it)."""
    text = MEMREF.format(vis="private ", second="%b", extra=(
        "%v = call @id(%a) : (memref<4xf32>) -> memref<4xf32>")) + \
        "func.func private @id(%m: memref<4xf32>) -> memref<4xf32> { return %m : memref<4xf32> }\n"
    m = parse(text, "t.mlir")
    assert out_params(m) == 1  # %b only
    out = print_module(m)
    assert "func.func private @f(%x: f32, %0: memref<4xf32>) -> memref<4xf32> {" in out


def run(text: str, plan: PlanOptions) -> oracle.RunResult:
    out = print_module(bufferize(parse(text, "<outparams>"), "oneshot", True, plan=plan))
    return oracle.run_program(out, count=True)


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", sorted(HERE.glob("*.mlir")), ids=lambda p: p.stem)
def test_programs_print_mlir_opts_values_with_fewer_allocations(path: Path) -> None:
    text = path.read_text()
    want = oracle.run_program(oracle.reference_bufferize(text), count=True)
    without = run(text, PlanOptions())
    with_ = run(text, PlanOptions(out_params=True))
    every = run(text, PlanOptions.all())
    for r in (with_, every):
        assert r.returncode == 0, r.stderr
        assert r.masked_stdout == want.masked_stdout
        assert (r.live, r.double_frees, r.bad_frees) == (0, 0, 0)
    assert with_.allocs <= without.allocs and every.allocs < without.allocs
