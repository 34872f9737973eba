"""Deallocation judged by what it costs at run time (tests/runtime_cost.py): on no program
of the never-worse suite (tests/test_dealloc_shapes.py SUITE) does bufferlog's output
allocate or copy more bytes than mlir-opt-22's ``--buffer-deallocation-pipeline``.

Each program with a ``@main`` runs once as written; a program with an ``scf.for`` runs
instead with its outermost loops set to 1 and to 100 iterations (both tools deallocate
the same rewritten program), so that what a strategy pays per iteration shows. Both
outputs print the same values; ours ends with nothing live and no double or foreign
free. Compared: bytes allocated (all, and without the dealloc helper's bookkeeping
arrays) and bytes copied (copies and clones). Checks executed are measured too and
reported by benchmarks/bench_dealloc_cost.py, not bounded: a pointer comparison is what
mlir-opt pays instead of a copy.

The harness itself is checked against hand-counted programs first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402
import runtime_cost as rc  # noqa: E402
from bufferlog.backend.dealloc import deallocate  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402
from test_dealloc_shapes import SUITE  # noqa: E402

needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")
TRIPS = (1, 100)


def cases() -> list[tuple[Path, int | None]]:
    out = []
    for p in SUITE:
        text = p.read_text()
        if "@main" not in text:
            continue
        out += [(p, n) for n in TRIPS] if "scf.for" in text else [(p, None)]
    return out


def program(path: Path, trips: int | None) -> str:
    text = path.read_text()
    return rc.with_trip_count(text, trips) if trips else text


def ours(text: str) -> str:
    m = parse(text, "<cost>")
    deallocate(m)
    return print_module(m)


# ------------------------------------------------------------------ the harness

HAND = """
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 3.0 : f32
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  %d = memref.alloc(%c5) : memref<?xf64>
  scf.for %i = %c0 to %c5 step %c1 {
    %b = memref.alloc() : memref<4xf32>
    memref.copy %a, %b : memref<4xf32> to memref<4xf32>
    %c = bufferization.clone %b : memref<4xf32> to memref<4xf32>
    memref.dealloc %b : memref<4xf32>
    scf.if %t {
      memref.dealloc %c : memref<4xf32>
    }
  }
  scf.if %f {
    memref.dealloc %a : memref<4xf32>
  }
  %u = memref.cast %a : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %d : memref<?xf64>
  return
}
"""


@needs_runner
@pytest.mark.oracle
def test_harness_counts_by_hand() -> None:
    """Five iterations of: a 16-byte alloc, a 16-byte copy into it, a clone of it (16
    bytes allocated and copied), two frees, one of them guarded (one check); outside: a
    16-byte and a 40-byte (dynamic) alloc, one guarded free never taken (one check)."""
    c = rc.measure(HAND)
    assert c.clean and "[3,  3,  3,  3]" in c.stdout
    assert c.allocs == 2 + 5 * 2 and c.alloc_bytes == 16 + 40 + 5 * 32
    assert c.copies == 10 and c.copy_bytes == 5 * 32
    assert c.checks == 5 + 1 and c.bookkeeping_bytes == 0


@needs_runner
@pytest.mark.oracle
def test_harness_counts_runtime_alias_checks_and_bookkeeping() -> None:
    """A bufferization.dealloc of two memrefs lowers to a helper call: its pointer and flag
    arrays are bookkeeping bytes, its pointer comparisons checks; a leak is seen."""
    text = """
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %t = arith.constant true
  %x = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  bufferization.dealloc (%a, %b : memref<2xf32>, memref<2xf32>) if (%t, %t)
  %leak = memref.alloc() : memref<3xf32>
  linalg.fill ins(%x : f32) outs(%leak : memref<3xf32>)
  %u = memref.cast %leak : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
"""
    c = rc.measure(text)
    assert c.returncode == 0 and c.live == 1 and not c.clean
    assert c.bookkeeping_bytes > 0 and c.alloc_bytes == 8 + 8 + 12 + c.bookkeeping_bytes
    assert c.checks >= 1 and c.copies == 0


def test_trip_count_rewrite() -> None:
    text = """
func.func @f(%lb: index, %ub: index, %s: index) {
  scf.for %i = %lb to %ub step %s {
    scf.for %j = %lb to %ub step %s {
    }
  }
  return
}
"""
    out = rc.with_trip_count(text, 7)
    assert "arith.constant 7 : index" in out and out.count("arith.muli") == 1
    assert out.count("arith.addi") == 1  # the inner loop keeps its bounds


# ------------------------------------------------------------------ the suite

@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize(("path", "trips"), cases(),
                         ids=lambda x: x.stem if isinstance(x, Path) else f"x{x}" if x else "as-is")
def test_never_more_bytes_than_mlir_opt(path: Path, trips: int | None) -> None:
    text = program(path, trips)
    mine = ours(text)
    a = rc.measure(mine)
    assert a.clean, (a, mine)
    ref = rc.mlir_opt_dealloc(text)
    if ref is None:
        pytest.skip("mlir-opt's pipeline refuses this input (frees already in it)")
    try:
        b = rc.measure(ref)
    except rc.CostError as e:  # e.g. a clone of a static-offset view it cannot lower
        pytest.skip(f"mlir-opt's output cannot be lowered: {str(e)[-200:]}")
    assert b.returncode == 0
    assert a.values == b.values
    worse = {k: (getattr(a, k), getattr(b, k)) for k in ("alloc_bytes", "data_bytes", "copy_bytes")
             if getattr(a, k) > getattr(b, k)}
    assert not worse, (worse, mine)
