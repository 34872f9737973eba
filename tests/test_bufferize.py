"""``bufferlog bufferize``: proof by execution against mlir-opt's own pipeline.

Each program is bufferized by us (oneshot and optimal decisions, dealloc on), lowered and
run under mlir-runner with the counting allocator; the masked printed output must equal
the reference pipeline's (``reference_bufferize``) and nothing may leak or be freed twice.
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle  # noqa: E402
from bufferlog.backend.bufferize import bufferize, collapsed_type, expanded_type  # noqa: E402
from bufferlog.backend.layout_questions import LayoutQuestions  # noqa: E402
from bufferlog.backend.quality import count_figures  # noqa: E402
from bufferlog.frontend import types as T  # noqa: E402
from bufferlog.frontend.attrs import StridedLayoutAttr  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402
from conftest import CORPUS_FILES, shared_dir  # noqa: E402
from gen_programs import generate  # noqa: E402

from bufferlog.core import UserError  # noqa: E402

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
def test_seed001_no_copy_no_helper():
    """Seed 001: no copy and no run-time check. ``@init_and_matmul`` is public, so its
    result (the buffer of ``%arg2``, written in place) stays in its signature and is
    returned as a clone, as mlir-opt's pipeline returns it: three allocations and the
    clone, each freed once. With the result dropped from every function (the explicit
    ``all`` mode), the caller reuses its operand and nothing is cloned."""
    text = program("init_and_matmul")
    c = oracle.count_ops(ours(text))
    ref = oracle.count_ops(oracle.reference_bufferize(text))
    assert c["copies"] == 0 and c["bufferization.clone"] == ref["bufferization.clone"] == 1
    assert c["dealloc_helper_calls"] == 0 and c["dealloc_helpers"] == 0
    assert c["memref.alloc"] == 3 and c["memref.dealloc"] == 4
    from bufferlog.backend.plan import PlanOptions

    dropped = print_module(bufferize(parse(text, "t.mlir"),
                                     plan=PlanOptions(drop_equivalent_results="all")))
    d = oracle.count_ops(dropped)
    assert d["copies"] == 0 and d["bufferization.clone"] == 0
    assert d["memref.alloc"] == 3 and d["memref.dealloc"] == 3
    run = oracle.run_program(dropped, count=True)
    assert (run.returncode, run.live, run.double_frees, run.bad_frees) == (0, 0, 0, 0)


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
    text = """func.func @f(%x: tensor<4xi32>) -> tensor<4xf32> {
  %g = tensor.bitcast %x : tensor<4xi32> to tensor<4xf32>
  return %g : tensor<4xf32>
}
"""
    with pytest.raises(UserError) as e:
        ours(text)
    assert str(e.value).startswith("t.mlir:2:") and "tensor.bitcast" in str(e.value)


# -- tensor.generate / tensor.reshape / scf.forall / cf branches carrying tensors -------

BUFFERIZE_DIR = Path(__file__).resolve().parent / "bufferize"
# cf_tensors has an unstructured (cf) loop, which mlir-opt's --buffer-deallocation-pipeline
# rejects ("Only structured control-flow loops are supported"): its reference output
# comes from the pipeline without dealloc (the output only; counts are ours).
NEW_OPS = {"generate_reshape": True, "forall": True, "cf_tensors": False}


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("name", list(NEW_OPS))
def test_new_ops_programs_match_reference(name, strategy):
    text = (BUFFERIZE_DIR / f"{name}.mlir").read_text()
    out = ours(text, strategy)
    got = oracle.run_program(out, count=True)
    ref = oracle.run_program(oracle.reference_bufferize(text, dealloc=NEW_OPS[name]), count=True)
    assert got.masked_stdout == ref.masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)


@functools.cache
def semantic_run_nodealloc(text: str):
    return oracle.run_semantic(text, count=True, dealloc=False)


def check_generated(text: str, strategy: str) -> None:
    """``text`` bufferized by bufferlog prints the copy-before-write reference's output,
    with dealloc: nothing leaks or is freed twice."""
    got = oracle.run_program(ours(text, strategy), count=True)
    assert got.masked_stdout == semantic_run_nodealloc(text).masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("seed", [*range(12), 27])
def test_generated_forall_cf_programs(seed, strategy):
    """Generated programs with scf.forall and cf branches carrying tensors
    (``generate(seed, 12, forall=True, cf=True)``). Seed 11 leaked the clone of a value
    forwarded twice on one cf.cond_br edge (now freed on the other edge); seed 27
    (optimal) freed a buffer whose view reached a join block as a borrowed block argument
    (keeps_alive now follows the whole view chain to the lender)."""
    check_generated(generate(seed, 12, forall=True, cf=True), strategy)


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("seed", [8, 11, 0, 1, 2, 3])
def test_generated_view_call_programs(seed, strategy):
    """Generated programs whose calls take slices and whose helpers return a write into
    a parameter (``generate(seed, 12, dps=True, views=True)``). Seeds 8 and 11 printed the
    slice's old values: the call's result was taken to be the slice, not the
    identity-layout copy the call passed and the callee wrote (also
    tests/miscompiles/slice_written_by_callee.mlir)."""
    check_generated(generate(seed, 12, dps=True, views=True), strategy)


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("seed", [None, 211])
def test_call_result_of_copied_view_is_the_copy(seed, strategy):
    """A strided view passed where the callee takes an identity layout is copied; a
    result equal to that argument is the copy the callee wrote, not the view (tests/bufferize/call_strided_view.mlir; generated forall/cf seed
    211 printed the unwritten view)."""
    text = (BUFFERIZE_DIR / "call_strided_view.mlir").read_text() if seed is None \
        else generate(seed, 12, forall=True, cf=True)
    got = oracle.run_program(ours(text, strategy), count=True)
    assert got.masked_stdout == oracle.run_semantic(text, count=True).masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)


def test_new_ops_output_shape():
    """generate -> alloc + linalg.map (fill for a constant body); reshape -> memref.reshape
    (a strided source copied first); forall -> scf.forall without shared_outs/results;
    tensor block arguments -> memref ones (fully dynamic layout when a strided view
    arrives)."""
    out = {n: ours((BUFFERIZE_DIR / f"{n}.mlir").read_text(), dealloc=False) for n in NEW_OPS}
    g = out["generate_reshape"]
    assert "tensor." not in g and g.count("linalg.map") == 2
    assert re.search(r"linalg\.fill ins\(%\w+ : f32\) outs\(%\w+ : memref<2x3xf32>\)", g)
    assert g.count("memref.reshape") == 4
    assert ": (memref<2x4xf32>, memref<2xindex>) -> memref<4x2xf32>" in g  # slice copied first
    f = out["forall"]
    assert "shared_outs" not in f and "parallel_insert_slice" not in f and "in_parallel" not in f
    assert f.count("scf.forall") == 3
    c = out["cf_tensors"]
    # the slice of @pick's argument reaches ^join in place (no read of the argument follows
    # the write there: rules/analysis/conflicts.dl rebound_before_read, as in mlir-opt), so
    # ^join takes a fully dynamic layout
    assert "^join(%x: memref<4xf32, strided<[?], offset: ?>>)" in c
    assert "memref.subview %t[2] [4] [1]" in c
    assert "^head(%k: index, %acc: memref<4xf32>)" in c


def test_forall_in_place_tile_copies_nothing():
    """A tile written in place through extract_slice of the shared_out is not copied back:
    parallel_insert_slice of the very subview is dropped; with the shared_out in place the
    function result is the argument's buffer, returned as it is before deallocation (as
    mlir-opt's One-Shot Bufferize returns it: the signature keeps the result)."""
    text = """func.func @f(%t: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    %c2 = arith.constant 2 : index
    %off = arith.muli %i, %c2 : index
    %s = tensor.extract_slice %o[%off] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %c = arith.constant 1.0 : f32
    %f = linalg.fill ins(%c : f32) outs(%s : tensor<2xf32>) -> tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%off] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
"""
    m = parse(text, "t.mlir")
    from bufferlog.backend.bufferize import Bufferizer
    from bufferlog.engine.oneshot import analyze_module

    facts, an, dec = analyze_module(m, "oneshot", "auto")
    for k in dec.inplace:  # the in-place decisions MLIR takes here
        dec.inplace[k] = True
    Bufferizer(m, facts, an, dec).run()
    out = print_module(m)
    assert "memref.copy" not in out and "memref.alloc" not in out
    assert "func.func @f(%t: memref<8xf32>) -> memref<8xf32> {" in out
    assert "return %t : memref<8xf32>" in out


# -- tensor.pad and reshapes of strided views (MLIR's layouts, no needless copies) -------

PAD_RESHAPE = Path(__file__).resolve().parent / "bufferize" / "pad_reshape_views.mlir"


def _mlir_opt_copies(text: str) -> int:
    """Copies in mlir-opt's reference pipeline output, counted by count_figures on the
    generic form (as benchmarks/bench_quality.py does)."""
    try:
        ref = oracle.reference_bufferize(text, loop_allocs=False)
    except oracle.OracleError:
        ref = oracle.reference_bufferize(text)
    return count_figures(oracle.mlir_opt(ref, "--mlir-print-op-generic"))["copies"]


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
def test_pad_reshape_program_matches_reference(strategy):
    text = PAD_RESHAPE.read_text()
    out = ours(text, strategy)
    got = oracle.run_program(out, count=True)
    ref = reference_run(text)
    assert got.masked_stdout == ref.masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)
    assert count_figures(out)["copies"] <= _mlir_opt_copies(text)


@pytest.mark.oracle
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_copies_not_above_mlir_opt(path, mlir_opt):
    text = path.read_text()
    theirs = _mlir_opt_copies(text)
    for strategy in ("oneshot", "optimal"):
        assert count_figures(bufferize(parse(text, path.name), strategy))["copies"] <= theirs, strategy


def test_reshapes_of_strided_views_do_not_copy():
    """expand_shape of any strided view and collapse_shape of contiguous dims are views
    with the layout MLIR computes; only a non-collapsible group is copied first."""
    text = """func.func @f(%t: tensor<4x6xf32>) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %s = tensor.extract_slice %t[0, 2] [3, 4] [1, 1] : tensor<4x6xf32> to tensor<3x4xf32>
  %e = tensor.expand_shape %s [[0], [1, 2]] output_shape [3, 2, 2] : tensor<3x4xf32> into tensor<3x2x2xf32>
  %a = tensor.extract %e[%c0, %c0, %c0] : tensor<3x2x2xf32>
  %r = tensor.extract_slice %t[2, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<1x6xf32>
  %rc = tensor.collapse_shape %r [[0, 1]] : tensor<1x6xf32> into tensor<6xf32>
  %b = tensor.extract %rc[%c0] : tensor<6xf32>
  %n = tensor.collapse_shape %s [[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
  %c = tensor.extract %n[%c0] : tensor<12xf32>
  return %a, %b, %c : f32, f32, f32
}
"""
    out = ours(text, dealloc=False)
    assert ("memref<3x4xf32, strided<[6, 1], offset: 2>> into "
            "memref<3x2x2xf32, strided<[6, 2, 1], offset: 2>>") in out
    assert "memref<1x6xf32, strided<[6, 1], offset: 12>> into memref<6xf32, strided<[1], offset: 12>>" in out
    assert out.count("memref.copy") == 1 and "memref<3x4xf32> into memref<12xf32>" in out


def test_layout_rules_like_mlir():
    """rules/layouts.dl on hand-made types (MLIR's computeCollapsedLayoutMap by hand),
    and the result types built from its answers."""
    f32 = T.FloatType("f32")
    q = LayoutQuestions()

    def collapsed(src, shape, groups):
        why, refs = q.collapse(src, groups)
        return None if why else collapsed_type(src, shape, refs)

    src = T.MemRefType((2, 3, 4), f32, StridedLayoutAttr((40, 4, 1), 5))
    assert collapsed(src, [2, 12], [[0], [1, 2]]).layout == StridedLayoutAttr((40, 1), 5)
    assert collapsed(src, [24], [[0, 1, 2]]) is None  # 40 != 3 * 4
    assert q.collapse(src, [[0, 1, 2]])[0] == "stride of dimension 1"
    unit = T.MemRefType((1, 5, 1), f32, StridedLayoutAttr((99, 7, 3), 0))
    assert collapsed(unit, [5], [[0, 1, 2]]).layout == StridedLayoutAttr((7,), 0)
    dyn = T.MemRefType((None, 4), f32, StridedLayoutAttr((None, 1), None))
    assert collapsed(dyn, [None], [[0, 1]]) is None  # not provably contiguous
    assert collapsed(dyn, [None, 4], [[0], [1]]).layout == StridedLayoutAttr((None, 1), None)
    assert expanded_type(dyn, [None, 2, 2], [[0], [1, 2]]).layout == StridedLayoutAttr((None, 2, 1), None)
    assert expanded_type(T.MemRefType((6,), f32), [2, 3], [[0, 1]]).layout is None
    ident = T.MemRefType((4,), f32)
    assert q.cast_blocked(T.MemRefType((4,), f32, StridedLayoutAttr((2,), 0)), ident) == "stride of dimension 0"
    assert q.cast_blocked(T.MemRefType((4,), f32, StridedLayoutAttr((1,), None)), ident) == "dynamic offset"
    assert q.cast_blocked(ident, T.MemRefType((4,), f32, StridedLayoutAttr((None,), None))) is None
    assert q.cast_blocked(T.MemRefType((4,), f32, StridedLayoutAttr((1,), 3)), ident) == "offset"
    assert q.cast_blocked(T.UnrankedMemRefType(f32), ident) is None
    assert q.not_identity(src) and not q.not_identity(ident)


@functools.cache
def semantic_run(text: str):
    return oracle.run_semantic(text)


@needs_runner
@pytest.mark.parametrize("seed", range(40))
def test_optimal_generated_matches_semantic_reference(seed):
    """``--strategy optimal`` on generated programs (size 10): every re-checked model is
    conflict-free, so the run prints the copy-before-write reference's output (seeds 10,
    11, 33 miscompiled while the re-check ignored callee writes)."""
    text = generate(seed, 10)
    got = oracle.run_program(ours(text, "optimal"), count=True)
    assert got.masked_stdout == semantic_run(text).masked_stdout
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)
