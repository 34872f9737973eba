"""backend/bufferize.py items owned with deallocation: ``memory_space`` on
``bufferization.alloc_tensor``, returned subviews (``infer-layout-map`` results: mlir-opt's
default function boundary), loops carrying an scf.if that yields a fresh tensor or the
carried one (passed on without a copy, as mlir-opt does), and bufferize without recursion
on deep nesting."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402
from bufferlog.backend.bufferize import bufferize  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402
from test_dealloc_rules import in_deep_thread, nest  # noqa: E402

needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")

MEMSPACE = """func.func @f(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = bufferization.alloc_tensor() {memory_space = 1 : i64} : tensor<8xf32>
  %f = linalg.fill ins(%x : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  %s = tensor.extract_slice %f[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %s) -> (tensor<4xf32>) {
    %w = tensor.insert %x into %a[%i] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  %g = linalg.fill ins(%x : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.extract %r[%c0] : tensor<4xf32>
  %e2 = tensor.extract %g[%c1] : tensor<4xf32>
  %e3 = arith.addf %e, %e2 : f32
  return %e3 : f32
}
"""

RETURNED_VIEWS = """func.func private @printMemrefF32(tensor<*xf32>)
func.func @tail(%x: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = tensor.extract_slice %f[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @part(%t: tensor<4xf32>) -> tensor<2xf32> {
  %s = tensor.extract_slice %t[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}
func.func @main() {
  %x = arith.constant 2.5 : f32
  %a = call @tail(%x) : (f32) -> tensor<4xf32>
  %b = call @part(%a) : (tensor<4xf32>) -> tensor<2xf32>
  %u = tensor.cast %b : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
"""


def ours(text: str, layout: str = "identity-layout-map") -> str:
    return print_module(bufferize(parse(text, "t.mlir"), layout=layout))


def ours_cli(text: str, layout: str, tmp_path) -> str:
    """The same through ``bufferlog bufferize --function-boundary-type-conversion``."""
    src = tmp_path / "t.mlir"
    src.write_text(text)
    r = subprocess.run([sys.executable, "-m", "bufferlog.cli", "bufferize", str(src),
                        "--function-boundary-type-conversion", layout],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def memref_types(text: str) -> list[str]:
    return sorted(set(re.findall(r"memref<[^>]*(?:<[^>]*>[^>]*)?>", text)))


@needs_oracle
@pytest.mark.oracle
def test_alloc_tensor_memory_space_is_kept() -> None:
    """The alloc, the subview of it and the out-of-place copy live in memory space 1,
    exactly the memref types mlir-opt's pipeline gives."""
    mine = ours(MEMSPACE)
    ref = oracle.reference_bufferize(MEMSPACE)
    oracle.mlir_opt(mine)
    assert "memref<8xf32, 1>" in mine
    assert memref_types(mine) == memref_types(ref)


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("via", ["backend", "cli"])
def test_returned_subview_with_inferred_result_layout(via, tmp_path) -> None:
    """With ``infer-layout-map`` (mlir-opt's default function boundary) a returned slice
    is returned as the subview: no alloc, no copy; the signatures are mlir-opt's."""
    part = RETURNED_VIEWS
    mine = ours(part, "infer-layout-map") if via == "backend" else \
        ours_cli(part, "infer-layout-map", tmp_path)
    ref = oracle.mlir_opt(part, "--one-shot-bufferize=bufferize-function-boundaries",
                          "--buffer-deallocation-pipeline")
    sig = re.compile(r"func\.func @(\w+)\(([^)]*)\) -> (.*) \{")
    strip = re.compile(r"%\w+: ")
    assert {m[0]: (strip.sub("", m[1]), m[2]) for m in sig.findall(mine)} == \
        {m[0]: (strip.sub("", m[1]), m[2]) for m in sig.findall(ref)}
    tail = mine[mine.index("@tail"):mine.index("@part")]
    assert "memref.copy" not in tail and tail.count("memref.alloc") == 1
    got = oracle.run_program(mine, count=True)
    want = oracle.run_program(ref, count=True)
    assert got.masked_stdout == want.masked_stdout
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0), mine


TENSOR_LOOPS = sorted((Path(__file__).resolve().parent / "dealloc" / "tensor_loops").glob("*.mlir"))


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("path", TENSOR_LOOPS, ids=lambda p: p.stem)
def test_loop_carried_if_result_is_not_copied(path: Path) -> None:
    """No more copies, clones, deallocs or runtime checks than mlir-opt's pipeline
    (allow-return-allocs-from-loops), and the same printed values as the copy-before-write
    reference, nothing leaked or freed twice."""
    from bufferlog.backend.quality import count_figures

    text = path.read_text()
    mine = ours(text)
    ref = oracle.mlir_opt(oracle.reference_bufferize(text), "--mlir-print-op-generic")
    a, b = count_figures(mine), count_figures(ref)
    worse = {k: (a[k], b[k]) for k in ("copies", "clones", "deallocs", "dealloc_checks") if a[k] > b[k]}
    assert not worse, (worse, mine)
    got = oracle.run_program(mine, count=True)
    want = oracle.run_semantic(text, count=True)
    assert got.returncode == 0, got.stderr
    assert got.masked_stdout == want.masked_stdout
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0), mine


def test_bufferize_walk_has_no_recursion_limit() -> None:
    """The tensor->memref rewrite of 1,000 nested scf.if runs with a Python recursion
    limit far below the nesting depth (the analysis before it is computed in a deep
    thread: engine/ and frontend/ still recurse per level)."""
    from bufferlog.engine.oneshot import analyze_module

    m = in_deep_thread(lambda: parse(nest(1000, "tensor<4xf32>"), "n.mlir"))
    an = in_deep_thread(lambda: analyze_module(m, "oneshot", "auto", None))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        bufferize(m, dealloc=False, analysis=an)
    finally:
        sys.setrecursionlimit(old)
    assert not any("tensor<" in str(a.type) for a in m.body.ops[0].regions[0].entry.args)
