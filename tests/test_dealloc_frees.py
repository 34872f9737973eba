"""Frees already in the input (issue 10: two double frees) and ops with unknown effects.

The programs of tests/dealloc/frees free buffers themselves: ``memref.dealloc`` on one
path, inside a loop body, through a view; a conditional ``bufferization.dealloc``;
``memref.realloc`` (which frees its source) followed by a free of its result; clones the
input frees. mlir-opt-22's pipeline refuses such inputs ("No deallocation operations must
be present" / "memory free side-effect on MemRef value not supported"; it accepts only the
clone one, whose clone/free pairs its canonicalizer folds first), so the printed values
are checked against the input run as is; ours must leak nothing and free nothing twice.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402
from bufferlog.backend.dealloc import deallocate  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402

from bufferlog.core import UserError  # noqa: E402

HERE = Path(__file__).resolve().parent
FREES = sorted((HERE / "dealloc" / "frees").glob("*.mlir"))
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")


def ours(text: str) -> str:
    m = parse(text, "t.mlir")
    deallocate(m)
    return print_module(m)


def runnable(text: str) -> str:
    return oracle.mlir_opt(text, "--expand-realloc") if "memref.realloc" in text else text


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("path", FREES, ids=lambda p: p.stem)
def test_frees_in_the_input_are_understood(path: Path) -> None:
    text = path.read_text()
    mine = ours(text)
    got = oracle.run_program(runnable(mine), count=True)
    want = oracle.run_program(runnable(text), count=True)
    assert got.returncode == 0, got.stderr
    assert got.masked_stdout == want.masked_stdout
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0), mine


def test_realloc_source_is_not_freed_again() -> None:
    """realloc frees (or reuses) its source: only the result is freed."""
    mine = ours((HERE / "dealloc" / "shapes" / "realloc_grow.mlir").read_text())
    assert re.findall(r"memref\.dealloc (%\w+)", mine) == ["%b"], mine


def test_existing_frees_are_kept_and_not_repeated() -> None:
    mine = ours((HERE / "dealloc" / "frees" / "bufferization_dealloc.mlir").read_text())
    assert mine.count("bufferization.dealloc (%a") == 1
    assert "memref.dealloc %a" not in mine and "memref.dealloc %b" in mine
    mine = ours((HERE / "dealloc" / "frees" / "dealloc_of_view.mlir").read_text())
    assert re.findall(r"memref\.dealloc (%\w+)", mine) == ["%s"], mine


def test_dead_clones_and_allocs_are_removed() -> None:
    mine = ours((HERE / "dealloc" / "frees" / "clone_freed_by_input.mlir").read_text())
    assert mine.count("bufferization.clone") == 1 and "%d" not in mine, mine
    mine = ours((HERE / "dealloc" / "shapes" / "dead_alloc.mlir").read_text())
    assert mine.count("memref.alloc()") == 1 and "memref.store" not in mine, mine


@needs_oracle
@pytest.mark.oracle
def test_unknown_memory_effects_is_mlir_opts_error() -> None:
    """An op whose memory effects are unknown is refused at the same line:col and with
    the same words as mlir-opt-22."""
    text = ("func.func @f(%x: f32) {\n  %a = memref.alloc() : memref<2xf32>\n"
            "  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)\n"
            '  %b = "test.use"(%a) : (memref<2xf32>) -> i32\n  return\n}\n')
    with pytest.raises(oracle.OracleError) as ref:
        oracle.mlir_opt(text, "--allow-unregistered-dialect", "--buffer-deallocation-pipeline")
    m = re.search(r"<stdin>:(\d+):(\d+): error: (.*)", ref.value.stderr)
    assert m, ref.value.stderr
    with pytest.raises(UserError) as e:
        deallocate(parse(text, "u.mlir"))
    assert str(e.value).startswith(f"u.mlir:{m.group(1)}:{m.group(2)}: error: {m.group(3)}")


def test_realloc_custom_syntax() -> None:
    text = ("func.func @f(%n: index) -> memref<?xf32> {\n  %a = memref.alloc() : memref<2xf32>\n"
            "  %b = memref.realloc %a(%n) : memref<2xf32> to memref<?xf32>\n"
            "  return %b : memref<?xf32>\n}\n")
    mine = ours(text)
    assert "memref.dealloc %a" not in mine
