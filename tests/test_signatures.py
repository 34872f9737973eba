"""Function signatures as mlir-opt makes them (a caller compiled elsewhere must link).

A public tensor function is bufferized by bufferlog and by mlir-opt's pipeline; a
memref-level ``@main`` written by hand against mlir-opt's signature (it passes its
buffer, gets a buffer back that it owns and frees, as the ownership-based deallocation's
convention says) is appended to each, and both programs run under mlir-runner with the
counting allocator. bufferlog's must print what mlir-opt's prints, with nothing leaked
and nothing freed twice: a dropped result would not link, a returned argument that is not
a clone would be freed twice by the caller.

Dropping results (backend/plan_drop.py) is checked against mlir-opt's
``-drop-equivalent-buffer-results`` (private functions; tests/runlines/signatures.mlir
compares the signatures) and run: programs whose calls take copied views (the dropped
result is the copy the callee wrote) print the semantic reference's values in every mode.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle  # noqa: E402
from bufferlog.backend.plan import PlanOptions  # noqa: E402
from gen_programs import generate  # noqa: E402

from bufferlog.api import bufferize, parse  # noqa: E402

needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-opt/mlir-runner missing")

LIBRARY = """\
func.func @scale(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r = tensor.insert %v into %t[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @fill_and_fresh(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %f = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %c2 = arith.constant 2.0 : f32
  %g = linalg.fill ins(%c2 : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f, %g : tensor<4xf32>, tensor<4xf32>
}
"""

# written against mlir-opt's signatures (identity layout, every result kept); it owns
# the buffers the calls return and frees them, and frees its own
MAIN = """\
func.func @main() {
  %c1 = arith.constant 1.0 : f32
  %c5 = arith.constant 5.0 : f32
  %c7 = arith.constant 7.0 : f32
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%c1 : f32) outs(%a : memref<4xf32>)
  %r = call @scale(%a, %c5) : (memref<4xf32>, f32) -> memref<4xf32>
  %p, %q = call @fill_and_fresh(%a, %c7) : (memref<4xf32>, f32) -> (memref<4xf32>, memref<4xf32>)
  %ur = memref.cast %r : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
  %up = memref.cast %p : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%up) : (memref<*xf32>) -> ()
  %uq = memref.cast %q : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%uq) : (memref<*xf32>) -> ()
  %ua = memref.cast %a : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  memref.dealloc %r : memref<4xf32>
  memref.dealloc %p : memref<4xf32>
  memref.dealloc %q : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
"""


def with_main(memref_text: str) -> str:
    """``memref_text`` (ours, or mlir-opt's ``module { ... }``) with :data:`MAIN` added."""
    body = memref_text.strip()
    if body.startswith("module {") and body.endswith("}"):
        body = body[len("module {"):-1]
    return body + "\n" + MAIN


def ours(text: str, plan: PlanOptions | None = None) -> str:
    return bufferize(parse(text, "lib.mlir"), plan=plan).text


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("plan", ["default", "none", "private drop"])
def test_public_function_called_as_mlir_opt_compiled_it(plan):
    opts = {"default": PlanOptions(), "none": PlanOptions.off(),
            "private drop": PlanOptions(drop_equivalent_results="private")}[plan]
    ref = oracle.run_program(with_main(oracle.reference_bufferize(LIBRARY)), count=True)
    assert (ref.returncode, ref.live, ref.double_frees, ref.bad_frees) == (0, 0, 0, 0)
    got = oracle.run_program(with_main(ours(LIBRARY, opts)), count=True)
    assert got.masked_stdout == ref.masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)
    # the values, by hand: %a is written in place by both calls (5 at [0], then all 7);
    # @scale's result is a buffer of its own, taken before the second call
    rows = [[float(x) for x in line.strip("[]").split(",")]
            for line in oracle.print_data(got.stdout).splitlines()]
    assert rows == [[5, 1, 1, 1], [7, 7, 7, 7], [2, 2, 2, 2], [7, 7, 7, 7]]


@needs_runner
@pytest.mark.oracle
def test_dropping_public_results_changes_the_signature():
    """The explicit ``all`` mode drops public results too: no longer what mlir-opt makes,
    so the hand-written caller no longer links (shown, so the test above could fail)."""
    text = ours(LIBRARY, PlanOptions(drop_equivalent_results="all"))
    assert "func.func @scale(%t: memref<4xf32>, %v: f32) {" in text
    with pytest.raises(oracle.OracleError):
        oracle.run_program(with_main(text), count=True)


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("mode", ["none", "private", "all"])
@pytest.mark.parametrize("source", ["call_strided_view", 8, 11, 211])
def test_dropped_results_run_correctly(source, mode):
    """A dropped result is replaced at each call by the operand the call passed (the copy
    a strided view needed, when it needed one)."""
    if isinstance(source, int):
        text = generate(source, 12, forall=True, cf=True) if source == 211 else \
            generate(source, 12, dps=True, views=True)
    else:
        text = (Path(__file__).parent / "bufferize" / f"{source}.mlir").read_text()
    got = oracle.run_program(ours(text, PlanOptions(drop_equivalent_results=mode)), count=True)
    assert got.masked_stdout == oracle.run_semantic(text, count=True).masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)
