"""backend/quality.py ``count_figures`` (the product's counting function) against the
independent textual count ``tests/oracle.py count_ops``, on mlir-opt's own pipeline output
(custom text for count_ops, generic text for us) and on ours."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle  # noqa: E402
from bufferlog.backend.bufferize import bufferize  # noqa: E402
from bufferlog.backend.quality import FIGURES, count_figures  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402
from conftest import CORPUS_FILES  # noqa: E402

# count_ops tells bookkeeping buffers by element type (index/i1); these files also have
# user buffers of i1 (masks), which count_figures rightly counts as data (checked below).
USER_I1 = {"elementwise_reductions.mlir", "tensor_ops.mlir", "while_loop.mlir"}
FILES = [p for p in CORPUS_FILES if ".elided" not in p.name and p.name not in USER_I1]


def _oracle_view(c: dict) -> dict:
    return {"allocs": c["memref.alloc"], "allocas": c["memref.alloca"],
            "bookkeeping_allocs": c["bookkeeping_allocs"], "copies": c["copies"],
            "bytes_copied": c["copy_bytes"], "dynamic_copies": c["dynamic_copies"],
            "clones": c["bufferization.clone"], "memref_deallocs": c["memref.dealloc"],
            "bufferization_deallocs": c["bufferization.dealloc"],
            "guarded_deallocs": c["guarded_deallocs"],
            "dealloc_helper_calls": c["dealloc_helper_calls"],
            "dealloc_helpers": c["dealloc_helpers"]}


def _reference(text: str) -> str:
    try:
        return oracle.reference_bufferize(text, loop_allocs=False)
    except oracle.OracleError:
        return oracle.reference_bufferize(text)


def _check(figs: dict, memref_ir: str) -> None:
    ref = _oracle_view(oracle.count_ops(memref_ir))
    assert {k: figs[k] for k in ref} == ref
    assert figs["deallocs"] == figs["memref_deallocs"] + figs["bufferization_deallocs"]
    assert figs["dealloc_checks"] == (figs["guarded_deallocs"] + figs["dealloc_helper_calls"]
                                      + figs["bufferization_deallocs"])
    assert set(figs) == set(FIGURES)


@pytest.mark.oracle
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_mlir_opt_output(path, mlir_opt):
    ref = _reference(path.read_text())
    generic = oracle.mlir_opt(ref, "--mlir-print-op-generic")
    _check(count_figures(generic), ref)


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_our_output(path):
    m = bufferize(parse(path.read_text(), str(path)))
    text = print_module(m)
    figs = count_figures(m)
    assert figs == count_figures(text)  # module and its text count the same
    _check(figs, text)


def test_helper_machinery_and_user_i1_buffers():
    """Bookkeeping arrays are the ones handed to a dealloc_helper; a user's i1 buffer is
    data; nothing inside the helper counts; guarded = directly in scf.if."""
    text = """module {
  func.func private @dealloc_helper(%a: memref<?xindex>, %b: memref<?xi1>) {
    %x = memref.alloc() : memref<4xf32>
    memref.dealloc %x : memref<4xf32>
    return
  }
  func.func @f(%c: i1, %d: memref<?xf32>, %n: index) {
    %m = memref.alloc() : memref<4xi1>
    %p = memref.alloc() : memref<2xindex>
    %q = memref.alloc() : memref<2xi1>
    %pc = memref.cast %p : memref<2xindex> to memref<?xindex>
    %qc = memref.cast %q : memref<2xi1> to memref<?xi1>
    call @dealloc_helper(%pc, %qc) : (memref<?xindex>, memref<?xi1>) -> ()
    %e = memref.alloc() : memref<8xf32>
    %k = bufferization.clone %e : memref<8xf32> to memref<8xf32>
    memref.copy %e, %k : memref<8xf32> to memref<8xf32>
    %z = memref.alloc(%n) : memref<?xf32>
    memref.copy %d, %z : memref<?xf32> to memref<?xf32>
    scf.if %c {
      memref.dealloc %e : memref<8xf32>
    }
    scf.if %c {
      scf.execute_region {
        memref.dealloc %k : memref<8xf32>
        scf.yield
      }
    }
    memref.dealloc %m : memref<4xi1>
    memref.dealloc %p : memref<2xindex>
    memref.dealloc %q : memref<2xi1>
    memref.dealloc %z : memref<?xf32>
    return
  }
}
"""
    f = count_figures(text)
    assert f["allocs"] == 3 and f["bookkeeping_allocs"] == 2  # %m, %e, %z / %p, %q
    assert f["copies"] == 2 and f["bytes_copied"] == 32 and f["dynamic_copies"] == 1
    assert f["clones"] == 1 and f["dealloc_helpers"] == 1 and f["dealloc_helper_calls"] == 1
    assert f["memref_deallocs"] == 4 and f["guarded_deallocs"] == 1
    assert f["dealloc_checks"] == 2 and f["deallocs"] == 4
