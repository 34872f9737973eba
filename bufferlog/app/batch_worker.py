"""Imported by the batch executor before it forks its workers (or preloaded by its fork
server): imports the per-file code, loads the parser tables and the rules and analyses a
small sample once, so that every worker process starts with them ready."""

from __future__ import annotations

from bufferlog.app import batch  # noqa: F401  (import for its side effect: loaded code)

_SAMPLE = """
func.func @f(%a: tensor<4xf32>, %i: index) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %y = tensor.insert %f into %e[%i] : tensor<4xf32>
  %z = linalg.fill ins(%f : f32) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %k = %c0 to %i step %i iter_args(%t = %z) -> (tensor<4xf32>) {
    scf.yield %t : tensor<4xf32>
  }
  return %r, %x : tensor<4xf32>, f32
}
"""


def warm() -> None:
    try:
        from bufferlog.app.batch import analyze_file

        analyze_file("<warm-up>", None, _SAMPLE.encode())
    except Exception:  # a broken parser shows up per file, with its message
        pass


warm()
