"""``bufferlog opt``: each mlir-opt pass it takes against mlir-opt-22's own output on
hand-written programs (tests/opt/*.mlir), and whole pipelines run under mlir-runner.

Where bufferlog's stage is not mlir-opt's pass, the difference is pinned here (and said in
the README): ``-buffer-hoisting`` makes one allocation before an ``scf.if`` for a pair made
in its two branches, where mlir-opt moves both up (two allocations);
``-promote-buffers-to-stack`` leaves allocations in loops on the heap (each iteration
would take stack), where mlir-opt promotes them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle  # noqa: E402

HERE = Path(__file__).resolve().parent / "opt"
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")


def ours(path: Path, *passes: str) -> str:
    r = subprocess.run([sys.executable, "-m", "bufferlog", "opt", str(path), *passes],
                       capture_output=True, text=True, cwd=oracle.REPO)
    assert r.returncode == 0, r.stderr
    return r.stdout


def same_as_mlir_opt(path: Path, *passes: str) -> tuple[str, str]:
    """(ours, mlir-opt's), both printed by mlir-opt (names and layout normalized)."""
    return oracle.mlir_opt(ours(path, *passes)), oracle.mlir_opt(path, *passes)


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("passes", [["-expand-realloc"], ["-expand-realloc=emit-deallocs=false"],
                                    ["--pass-pipeline=builtin.module(expand-realloc)"]])
def test_expand_realloc_is_mlir_opts(passes):
    mine, theirs = same_as_mlir_opt(HERE / "realloc.mlir", *passes)
    assert mine == theirs and "memref.realloc" not in mine


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("passes", [["-buffer-loop-hoisting"],
                                    ["-promote-buffers-to-stack=max-alloc-size-in-bytes=8"],
                                    ["--pass-pipeline=builtin.module(func.func(buffer-loop-hoisting))"]])
def test_placement_passes_as_mlir_opt(passes):
    mine, theirs = same_as_mlir_opt(HERE / "placement.mlir", *passes)
    assert mine == theirs


@needs_oracle
@pytest.mark.oracle
def test_promotion_differs_only_in_loops():
    mine, theirs = same_as_mlir_opt(HERE / "placement.mlir", "-promote-buffers-to-stack")

    def loop(t):
        return t[t.index("@loop"):t.index("@branches")]

    def rest(t):
        return t[t.index("@branches"):]

    assert loop(theirs).count("memref.alloca") == 1 and loop(mine).count("memref.alloca") == 0
    assert rest(mine) == rest(theirs) and "memref.alloca()" in rest(mine)


@needs_oracle
@pytest.mark.oracle
def test_buffer_hoisting_makes_one_allocation_for_a_pair():
    mine, theirs = same_as_mlir_opt(HERE / "placement.mlir", "-buffer-hoisting")
    branches = slice(theirs.index("@branches"), theirs.index("@sizes"))
    assert theirs[branches].count("memref.alloc()") == 2
    assert mine[branches].count("memref.alloc()") == 1
    assert mine[branches].index("memref.alloc()") < mine[branches].index("scf.if")


def test_deallocation_needs_input_without_frees(tmp_path):
    f = tmp_path / "f.mlir"
    f.write_text((HERE / "realloc.mlir").read_text())
    r = subprocess.run([sys.executable, "-m", "bufferlog", "opt", str(f), "-expand-realloc",
                        "-buffer-deallocation-pipeline"], capture_output=True, text=True,
                       cwd=oracle.REPO)
    assert r.returncode == 1 and "memory free side-effect on MemRef value not supported" in r.stderr
    # as mlir-opt: without the frees expand-realloc adds, the pipeline runs
    ok = ours(f, "-expand-realloc=emit-deallocs=false", "-buffer-deallocation-pipeline")
    assert "memref.dealloc" in ok and "memref.realloc" not in ok


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("passes", [
    ["-one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion="
     "identity-layout-map", "-buffer-deallocation-pipeline"],
    ["-one-shot-bufferize=bufferize-function-boundaries", "-drop-equivalent-buffer-results",
     "-buffer-hoisting", "-buffer-loop-hoisting", "-promote-buffers-to-stack",
     "-buffer-deallocation-pipeline"],
    ["--pass-pipeline=builtin.module(one-shot-bufferize{bufferize-function-boundaries "
     "function-boundary-type-conversion=identity-layout-map}, "
     "ownership-based-buffer-deallocation)"],
])
@pytest.mark.parametrize("name", ["init_and_matmul", "raw_conflict_main"])
def test_pipelines_run_as_mlir_opts(name, passes, tmp_path):
    """Whole pipelines of bufferlog opt print what mlir-opt's reference pipeline prints,
    with nothing leaked or freed twice (the bufferization.dealloc form lowered by
    mlir-opt's own pass)."""
    path = oracle.REPO / "examples" / "init_and_matmul.mlir" if name == "init_and_matmul" \
        else HERE / f"{name}.mlir"
    text = ours(path, *passes)
    if "bufferization.dealloc" in text:
        text = oracle.mlir_opt(text, "--buffer-deallocation-simplification",
                               "--bufferization-lower-deallocations", "--canonicalize")
    got = oracle.run_program(text, count=True)
    ref = oracle.run_program(oracle.reference_bufferize(path.read_text()), count=True)
    assert got.masked_stdout == ref.masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)
