"""``bufferlog bufferize``: proof by execution against mlir-opt's own pipeline.

Each program is bufferized by us (oneshot and optimal decisions, dealloc on), lowered and
run under mlir-runner with the counting allocator; the masked printed output must equal
the reference pipeline's (``reference_bufferize``) and nothing may leak or be freed twice.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle  # noqa: E402
from bufferlog.backend.bufferize import bufferize  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402
from conftest import CORPUS_FILES, shared_dir  # noqa: E402
from gen_programs import generate  # noqa: E402

from bufferlog.errors import UserError  # noqa: E402

needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-opt/mlir-runner missing")
SEEDS_DIR = shared_dir() / "corpus" / "seeds"
GEN_SEEDS = [1, 2, 3, 4, 6, 8, 9, 12, 13, 14, 18, 19, 21, 22, 23]
# scf.while nested in scf.for/scf.if (rejected by the dealloc backend before it handled
# scf.while): run with dealloc like the others
GEN_NESTED_WHILE = [5, 7, 15, 16, 17, 20, 27]


def ours(text: str, strategy: str = "oneshot", dealloc: bool = True) -> str:
    return print_module(bufferize(parse(text, "t.mlir"), strategy, dealloc))


@functools.cache
def reference_run(text: str):
    return oracle.run_program(oracle.reference_bufferize(text), count=True)


def program(name):
    if isinstance(name, int):
        return generate(name)
    return (SEEDS_DIR / f"{name}.mlir").read_text()


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("name", ["init_and_matmul", "maybe_copy", *GEN_SEEDS, *GEN_NESTED_WHILE])
def test_execution_matches_reference(name, strategy):
    text = program(name)
    got = oracle.run_program(ours(text, strategy), count=True)
    ref = reference_run(text)
    assert got.masked_stdout == ref.masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)


@pytest.mark.parametrize("seed", [1, 5])
def test_while_stays_structured(seed):
    """scf.while carrying buffers reaches the dealloc backend as is (no cf lowering)."""
    text = generate(seed)
    out = ours(text)
    assert out.count("scf.while") == text.count("scf.while")
    assert "cf.br" not in out and "cf.cond_br" not in out


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_output_verifies(path, mlir_opt):
    out = ours(path.read_text(), dealloc=path.parent.name == "seeds")
    proc = subprocess.run([mlir_opt], input=out, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@needs_runner
def test_seed001_no_copy_no_clone_no_helper():
    c = oracle.count_ops(ours(program("init_and_matmul")))
    assert c["copies"] == 0 and c["bufferization.clone"] == 0
    assert c["dealloc_helper_calls"] == 0 and c["dealloc_helpers"] == 0
    assert c["memref.alloc"] == 3 and c["memref.dealloc"] == 3


def test_subview_layout_and_insert_slice_in_place():
    text = """func.func @f(%t: tensor<8x16xf32>, %i: index) -> tensor<8x16xf32> {
  %s = tensor.extract_slice %t[2, %i] [4, 4] [1, 2] : tensor<8x16xf32> to tensor<4x4xf32>
  %c = arith.constant 1.0 : f32
  %f = linalg.fill ins(%c : f32) outs(%s : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tensor.insert_slice %f into %t[2, %i] [4, 4] [1, 2] : tensor<4x4xf32> into tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
"""
    out = ours(text, dealloc=False)
    assert "memref<4x4xf32, strided<[16, 2], offset: ?>>" in out
    assert "memref.copy" not in out and "memref.alloc" not in out


def test_unsupported_op_is_located_error():
    text = """func.func @f(%n: index) -> tensor<?xf32> {
  %g = tensor.generate %n {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<?xf32>
  return %g : tensor<?xf32>
}
"""
    with pytest.raises(UserError) as e:
        ours(text)
    assert str(e.value).startswith("t.mlir:2:") and "tensor.generate" in str(e.value)
