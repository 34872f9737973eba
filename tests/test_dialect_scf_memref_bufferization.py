"""scf / memref / bufferization custom syntax: parse -> IR -> print.

Round-trip cases check ``mlir-opt-22 snippet == mlir-opt-22 <(bufferlog print snippet)``;
structural cases check the built ops (MLIR operand order, segment sizes, properties,
region arguments, implicit terminators) without the oracle.

Snippets wrap their body in a generic-form ``func.func`` so they exercise only the
families under test.
"""

from __future__ import annotations

import re

import pytest
from bufferlog.frontend.attrs import DenseArrayAttr, DenseElementsAttr, StringAttr, UnitAttr
from bufferlog.frontend.dialects import DYNAMIC
from bufferlog.frontend.dialects.bufferization import alloc_tensor_parts, dealloc_parts
from bufferlog.frontend.dialects.memref import alloc_parts, subview_params
from bufferlog.frontend.dialects.scf import for_parts, forall_parts, if_parts, while_parts
from bufferlog.frontend.ir import Op
from bufferlog.frontend.parser import MLIRSyntaxError, parse
from bufferlog.frontend.printer import print_module
from bufferlog.frontend.types import IndexType, IntegerType, TensorType

try:
    import oracle
except ImportError:  # pragma: no cover - run from another rootdir
    from tests import oracle


def fn(args: str, body: str, name: str = "f", top: str = "") -> str:
    """A generic-form func.func around ``body`` (which ends without a return)."""
    decls = re.split(r",\s*(?=%)", args) if args else []
    types = ", ".join(a.split(":", 1)[1].strip() for a in decls)
    return (f'{top}\n"func.func"() <{{function_type = ({types}) -> (), sym_name = "{name}"}}> ({{\n'
            f"^bb0({args}):\n{body}\n" + '  "func.return"() : () -> ()\n}) : () -> ()\n')


SCF_ARGS = ("%lb: index, %ub: index, %s: index, %c: i1, %d: i1, %t: tensor<8xf32>, "
            "%a: i32, %b: i32, %m: memref<8xf32>, %f: f32")

CASES: dict[str, str] = {
    # ---- scf.for
    "for_plain": fn(SCF_ARGS, """
  scf.for %i = %lb to %ub step %s {
    memref.store %f, %m[%i] : memref<8xf32>
  }"""),
    "for_explicit_yield": fn(SCF_ARGS, """
  scf.for %i = %lb to %ub step %s {
    scf.yield
  } {some.attr = 3 : i32}"""),
    "for_iter_args": fn(SCF_ARGS, """
  %r:2 = scf.for %i = %lb to %ub step %s iter_args(%x = %t, %y = %f) -> (tensor<8xf32>, f32) {
    %e = memref.load %m[%i] : memref<8xf32>
    scf.yield %x, %e : tensor<8xf32>, f32
  }"""),
    "for_iter_arg_bare_type": fn(SCF_ARGS, """
  %r = scf.for %i = %lb to %ub step %s iter_args(%x = %m) -> memref<8xf32> {
    scf.yield %x : memref<8xf32>
  }"""),
    "for_unsigned_i32": fn(SCF_ARGS, """
  %r = scf.for unsigned %i = %a to %b step %a iter_args(%x = %b) -> (i32) : i32 {
    scf.yield %i : i32
  }"""),
    "for_nested_if": fn(SCF_ARGS, """
  %r = scf.for %i = %lb to %ub step %s iter_args(%buf = %m) -> (memref<8xf32>) {
    %n = scf.if %c -> (memref<8xf32>) {
      %new = memref.alloc() : memref<8xf32>
      memref.copy %buf, %new : memref<8xf32> to memref<8xf32>
      scf.yield %new : memref<8xf32>
    } else {
      scf.yield %buf : memref<8xf32>
    }
    scf.yield %n : memref<8xf32>
  }"""),
    # ---- scf.if
    "if_no_else": fn(SCF_ARGS, """
  scf.if %c {
    memref.store %f, %m[%lb] : memref<8xf32>
  }"""),
    "if_empty_else": fn(SCF_ARGS, """
  scf.if %c {
  } else {
  }"""),
    "if_results": fn(SCF_ARGS, """
  %r:2 = scf.if %c -> (tensor<8xf32>, i32) {
    scf.yield %t, %a : tensor<8xf32>, i32
  } else {
    scf.yield %t, %b : tensor<8xf32>, i32
  } {tag}"""),
    "if_single_bare_type": fn(SCF_ARGS, """
  %r = scf.if %c -> i32 {
    scf.yield %a : i32
  } else {
    scf.yield %b : i32
  }"""),
    # ---- scf.while / condition
    "while_do": fn(SCF_ARGS, """
  %r:2 = scf.while (%x = %a, %y = %t) : (i32, tensor<8xf32>) -> (i32, tensor<8xf32>) {
    scf.condition(%c) %x, %y : i32, tensor<8xf32>
  } do {
  ^bb0(%x2: i32, %y2: tensor<8xf32>):
    scf.yield %x2, %y2 : i32, tensor<8xf32>
  }"""),
    "while_result_types_differ": fn(SCF_ARGS, """
  %r = scf.while (%x = %a) : (i32) -> f32 {
    scf.condition(%c) {cond.tag} %f : f32
  } do {
  ^bb0(%v: f32):
    scf.yield %b : i32
  } attributes {w.tag = 1 : i64}"""),
    "while_no_inits": fn(SCF_ARGS, """
  scf.while : () -> () {
    scf.condition(%d)
  } do {
    scf.yield
  }"""),
    # ---- scf.forall / in_parallel / tensor.parallel_insert_slice
    "forall_in_shared_outs": fn(SCF_ARGS, """
  %r = scf.forall (%i, %j) in (4, %ub) shared_outs(%o = %t) -> (tensor<8xf32>) {
    %v = tensor.empty() : tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %v into %o[%i] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}"""),
    "forall_range_no_outs": fn(SCF_ARGS, """
  scf.forall (%i) = (%lb) to (%ub) step (2) {
    memref.store %f, %m[%i] : memref<8xf32>
  }"""),
    "forall_range_mixed": fn(SCF_ARGS, """
  %r:2 = scf.forall (%i, %j) = (1, %lb) to (%ub, 8) step (%s, 2) shared_outs(%o = %t, %p = %t) -> (tensor<8xf32>, tensor<8xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %o into %p[0] [8] [1] : tensor<8xf32> into tensor<8xf32>
      tensor.parallel_insert_slice %p into %o[%i] [8] [%s] {pis.tag} : tensor<8xf32> into tensor<8xf32>
    }
  }"""),
    # ---- scf.execute_region / scf.index_switch
    "execute_region": fn(SCF_ARGS, """
  %r = scf.execute_region -> i32 {
    scf.yield %a : i32
  }
  scf.execute_region no_inline {
    memref.store %f, %m[%lb] : memref<8xf32>
    scf.yield
  } {er.tag}"""),
    "index_switch": fn(SCF_ARGS, """
  %r:2 = scf.index_switch %lb -> i32, f32
  case 2 {
    scf.yield %a, %f : i32, f32
  }
  case 7 {
    scf.yield %b, %f : i32, f32
  }
  default {
    scf.yield %a, %f : i32, f32
  }
  scf.index_switch %ub
  default {
  }"""),
    # ---- memref
    "memref_alloc_alloca_dealloc": fn(
        "%n: index, %k: index, %s: index", """
  %a = memref.alloc(%n, %k) : memref<?x?xf32>
  %b = memref.alloc() {alignment = 64} : memref<4x8xf32>
  %c = memref.alloc(%n)[%s] : memref<?x8xf32, #map>
  %d = memref.alloca(%n) : memref<?xi8>
  %e = memref.alloca() {alignment = 16 : i64} : memref<4xf32, 1>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %c : memref<?x8xf32, #map>""",
        top="#map = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>"),
    "memref_copy_load_store": fn(
        "%m: memref<4x8xf32>, %u: memref<?x?xf32, strided<[?, 1], offset: ?>>, %i: index, %v: f32", """
  memref.copy %m, %u : memref<4x8xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  %x = memref.load %m[%i, %i] : memref<4x8xf32>
  %y = memref.load %u[%i, %i] {nontemporal = true} : memref<?x?xf32, strided<[?, 1], offset: ?>>
  memref.store %x, %m[%i, %i] : memref<4x8xf32>
  memref.store %v, %u[%i, %i] {nontemporal = true} : memref<?x?xf32, strided<[?, 1], offset: ?>>"""),
    "memref_load_store_rank0": fn("%m: memref<f32>, %v: f32", """
  %x = memref.load %m[] : memref<f32>
  memref.store %v, %m[] : memref<f32>"""),
    "memref_subview": fn("%m: memref<4x8xf32>, %i: index, %n: index", """
  %a = memref.subview %m[%i, 2] [2, %n] [1, 1] : memref<4x8xf32> to memref<2x?xf32, strided<[8, 1], offset: ?>>
  %b = memref.subview %m[0, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1]>>
  %c = memref.subview %m[%i, %i] [%n, %n] [%n, 2] {sv.tag} : memref<4x8xf32> to memref<?x?xf32, strided<[?, 2], offset: ?>>"""),
    "memref_cast_dim_view": fn("%m: memref<4x8xf32>, %i: index, %n: index", """
  %a = memref.cast %m : memref<4x8xf32> to memref<?x?xf32>
  %b = memref.cast %m : memref<4x8xf32> to memref<*xf32>
  %d = memref.dim %a, %i : memref<?x?xf32>
  %raw = memref.alloc() : memref<2048xi8>
  %v = memref.view %raw[%i][%n] : memref<2048xi8> to memref<?x4xf32>
  %w = memref.view %raw[%i][] : memref<2048xi8> to memref<8x4xf32>
  %al = memref.assume_alignment %m, 16 : memref<4x8xf32>"""),
    "memref_globals": fn("", """
  %g = memref.get_global @c : memref<2xf32>
  %h = memref.get_global @u : memref<4xi32>""", top="""
memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64}
memref.global @u : memref<4xi32> = uninitialized
memref.global "private" @e : memref<3xf32>
memref.global "public" @z : memref<2x2xi8> = dense<0>
memref.global constant @s : memref<f64> = dense<3.5>"""),
    "memref_reinterpret_cast": fn("%m: memref<4x8xf32>, %i: index, %n: index", """
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 8], strides: [8, 1] : memref<4x8xf32> to memref<?x8xf32, strided<[8, 1]>>
  %b = memref.reinterpret_cast %m to offset: [%i], sizes: [32], strides: [%n] : memref<4x8xf32> to memref<32xf32, strided<[?], offset: ?>>"""),
    "memref_reshapes": fn("%m: memref<4x8xf32>, %d: memref<?xf32>, %n: index", """
  %a = memref.expand_shape %d [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  %b = memref.expand_shape %m [[0], [1, 2]] output_shape [4, 2, 4] : memref<4x8xf32> into memref<4x2x4xf32>
  %c = memref.collapse_shape %m [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  %e = memref.collapse_shape %a [[0, 1]] {cs.tag} : memref<?x4xf32> into memref<?xf32>"""),
    "memref_extract_strided_metadata": fn("%m: memref<4x8xf32>, %r: memref<f32>", """
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %m : memref<4x8xf32> -> memref<f32>, index, index, index, index, index
  %b0, %o0 = memref.extract_strided_metadata %r : memref<f32> -> memref<f32>, index"""),
    "memref_reshape_memory_space_cast": fn(
        "%m: memref<4x1xf32>, %s: memref<1xi32>, %d: memref<?xi64>, %u: memref<?xf32, 1>", """
  %a = memref.reshape %m(%s) : (memref<4x1xf32>, memref<1xi32>) -> memref<4xf32>
  %b = memref.reshape %m(%d) : (memref<4x1xf32>, memref<?xi64>) -> memref<*xf32>
  %c = memref.memory_space_cast %u : memref<?xf32, 1> to memref<?xf32>"""),
    # ---- bufferization
    "bufz_to_tensor_to_buffer": fn("%m: memref<4xf32>, %t: tensor<4xf32>", """
  %a = bufferization.to_tensor %m restrict writable : memref<4xf32> to tensor<4xf32>
  %b = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  %c = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %d = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %e = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32, strided<[?], offset: ?>>"""),
    "bufz_alloc_tensor": fn("%n: index, %t: tensor<4xf32>, %u: tensor<?xf32>", """
  %a = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %b = bufferization.alloc_tensor() copy(%t) : tensor<4xf32>
  %c = bufferization.alloc_tensor(%n) size_hint = %n : tensor<?xf32>
  %d = bufferization.alloc_tensor() {memory_space = 1 : i64} : tensor<4xf32>
  %e = bufferization.alloc_tensor() copy(%u) {memory_space = 2 : i64} : tensor<?xf32>"""),
    "bufz_materialize": fn("%t: tensor<4xf32>, %u: tensor<4xf32>, %m: memref<4xf32>", """
  %r = bufferization.materialize_in_destination %t in %u : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  bufferization.materialize_in_destination %t in restrict writable %m : (tensor<4xf32>, memref<4xf32>) -> ()"""),
    "bufz_clone": fn("%m: memref<4xf32>", """
  %c = bufferization.clone %m : memref<4xf32> to memref<4xf32>"""),
    "bufz_dealloc": fn("%m: memref<4xf32>, %n: memref<?xf32>, %c: i1, %d: i1", """
  %r:2 = bufferization.dealloc (%m, %n : memref<4xf32>, memref<?xf32>) if (%c, %d) retain (%n, %m : memref<?xf32>, memref<4xf32>)
  bufferization.dealloc (%m : memref<4xf32>) if (%c)
  bufferization.dealloc
  %s = bufferization.dealloc retain (%n : memref<?xf32>)
  %q = bufferization.dealloc (%n : memref<?xf32>) if (%d) retain (%m : memref<4xf32>) {dl.tag}"""),
}

# Spellings mlir-opt 22 no longer accepts: (old text, equivalent current text).
OLD_FORMS: dict[str, tuple[str, str]] = {
    "to_memref": (
        fn("%t: tensor<4xf32>", "  %b = bufferization.to_memref %t : tensor<4xf32> to memref<4xf32>"),
        fn("%t: tensor<4xf32>", "  %b = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>")),
    "to_memref_read_only": (
        fn("%t: tensor<4xf32>", "  %b = bufferization.to_memref %t read_only : tensor<4xf32> to memref<4xf32>"),
        fn("%t: tensor<4xf32>", "  %b = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>")),
    "to_buffer_result_type_only": (
        fn("%t: tensor<?x?xf32>", "  %b = bufferization.to_buffer %t : memref<?x?xf32, strided<[?, ?], offset: ?>>"),
        fn("%t: tensor<?x?xf32>", "  %b = bufferization.to_buffer %t : tensor<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>")),
    "to_tensor_memref_type_only": (
        fn("%m: memref<4x?xf32>", "  %t = bufferization.to_tensor %m restrict : memref<4x?xf32>"),
        fn("%m: memref<4x?xf32>", "  %t = bufferization.to_tensor %m restrict : memref<4x?xf32> to tensor<4x?xf32>")),
    "clone_functional_type": (
        fn("%m: memref<2xf32>", "  %c = bufferization.clone %m : (memref<2xf32>) -> (memref<2xf32>)"),
        fn("%m: memref<2xf32>", "  %c = bufferization.clone %m : memref<2xf32> to memref<2xf32>")),
}


def roundtrip(text: str) -> str:
    return print_module(parse(text, "snippet.mlir"))


def build(text: str) -> list[Op]:
    """All ops of the snippet in pre-order (module and func excluded)."""
    m = parse(text, "snippet.mlir")
    return [op for op in m.walk() if op.name not in ("builtin.module", "func.func",
                                                     "func.return")]


def first(text: str, name: str) -> Op:
    return next(op for op in build(text) if op.name == name)


needs_oracle = pytest.mark.skipif(not oracle.available(run=False),
                                  reason="mlir-opt-22 not installed")


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(CASES))
def test_roundtrip_matches_mlir_opt(name: str) -> None:
    text = CASES[name]
    expected = oracle.normalize(text)
    printed = roundtrip(text)
    assert oracle.normalize(printed) == expected, printed


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(OLD_FORMS))
def test_old_spellings_print_current_syntax(name: str) -> None:
    old, new = OLD_FORMS[name]
    printed = roundtrip(old)
    assert oracle.normalize(printed) == oracle.normalize(new), printed


@pytest.mark.parametrize("name", sorted(CASES))
def test_print_is_a_fixpoint(name: str) -> None:
    once = roundtrip(CASES[name])
    assert roundtrip(once) == once


# ---- structure: scf ---------------------------------------------------------------------

def test_for_structure() -> None:
    op = first(CASES["for_iter_args"], "scf.for")
    f = for_parts(op)
    assert [v.name for v in (f.lb, f.ub, f.step)] == ["lb", "ub", "s"]
    assert [v.name for v in f.inits] == ["t", "f"]
    assert len(f.body.args) == 3 and f.iv.type == IndexType()
    assert [r.type for r in op.results] == [a.type for a in f.iter_args]
    assert f.body.terminator.name == "scf.yield" and len(f.body.terminator.operands) == 2


def test_for_implicit_yield_and_unsigned() -> None:
    op = first(CASES["for_plain"], "scf.for")
    assert op.regions[0].entry.terminator.name == "scf.yield"
    assert "unsignedCmp" not in op.attrs
    op = first(CASES["for_unsigned_i32"], "scf.for")
    assert isinstance(op.attrs["unsignedCmp"], UnitAttr)
    assert for_parts(op).iv.type == IntegerType(32)


def test_if_structure() -> None:
    op = first(CASES["if_no_else"], "scf.if")
    p = if_parts(op)
    assert p.else_block is None and op.regions[1].blocks == []
    assert p.then_block.terminator.name == "scf.yield"
    op = first(CASES["if_empty_else"], "scf.if")
    assert if_parts(op).else_block is not None
    assert if_parts(op).else_block.terminator.name == "scf.yield"
    op = first(CASES["if_results"], "scf.if")
    assert [str(r.type) for r in op.results] == ["tensor<8xf32>", "i32"]


def test_while_structure() -> None:
    op = first(CASES["while_do"], "scf.while")
    w = while_parts(op)
    assert [v.name for v in w.inits] == ["a", "t"]
    assert len(w.before.args) == 2 and len(w.after.args) == 2
    assert w.condition.name == "scf.condition" and w.condition.operands[0].name == "c"
    assert len(op.results) == 2
    op = first(CASES["while_result_types_differ"], "scf.while")
    assert [str(r.type) for r in op.results] == ["f32"]
    assert "w.tag" in op.attrs


def test_forall_structure() -> None:
    op = first(CASES["forall_in_shared_outs"], "scf.forall")
    f = forall_parts(op)
    assert op.attrs["operandSegmentSizes"] == DenseArrayAttr("i32", (0, 1, 0, 1))
    assert op.attrs["staticUpperBound"] == DenseArrayAttr("i64", (4, DYNAMIC))
    assert op.attrs["staticLowerBound"] == DenseArrayAttr("i64", (0, 0))
    assert op.attrs["staticStep"] == DenseArrayAttr("i64", (1, 1))
    assert f.ubs[0] == 4 and f.ubs[1].name == "ub"
    assert len(f.ivs) == 2 and len(f.shared_outs) == 1 and f.outputs[0].name == "t"
    assert f.terminator.name == "scf.forall.in_parallel"
    (pis,) = f.terminator.regions[0].entry.ops
    assert pis.name == "tensor.parallel_insert_slice"
    assert pis.operands[1] is f.shared_outs[0] and pis.operands[2] is f.ivs[0]
    assert pis.attrs["operandSegmentSizes"] == DenseArrayAttr("i32", (1, 1, 1, 0, 0))
    assert pis.attrs["static_offsets"] == DenseArrayAttr("i64", (DYNAMIC,))
    op = first(CASES["forall_range_no_outs"], "scf.forall")
    assert op.attrs["operandSegmentSizes"] == DenseArrayAttr("i32", (1, 1, 0, 0))
    assert op.regions[0].entry.terminator.name == "scf.forall.in_parallel"


def test_index_switch_structure() -> None:
    op = first(CASES["index_switch"], "scf.index_switch")
    assert op.attrs["cases"] == DenseArrayAttr("i64", (2, 7))
    assert len(op.regions) == 3  # default first, then the cases
    assert op.regions[2].entry.terminator.operands[0].name == "b"


# ---- structure: memref ------------------------------------------------------------------

def test_alloc_segments() -> None:
    ops = [o for o in build(CASES["memref_alloc_alloca_dealloc"])
           if o.name in ("memref.alloc", "memref.alloca")]
    segs = [tuple(o.attrs["operandSegmentSizes"].values) for o in ops]
    assert segs == [(2, 0), (0, 0), (1, 1), (1, 0), (0, 0)]
    dyn, sym = alloc_parts(ops[2])
    assert [v.name for v in dyn] == ["n"] and [v.name for v in sym] == ["s"]


def test_load_store_operand_order() -> None:
    ops = build(CASES["memref_copy_load_store"])
    load = next(o for o in ops if o.name == "memref.load")
    store = next(o for o in ops if o.name == "memref.store")
    assert [v.name for v in load.operands] == ["m", "i", "i"]
    assert str(load.result.type) == "f32"
    assert [v.name for v in store.operands] == ["x", "m", "i", "i"]


def test_subview_params() -> None:
    op = first(CASES["memref_subview"], "memref.subview")
    assert op.attrs["operandSegmentSizes"] == DenseArrayAttr("i32", (1, 1, 1, 0))
    assert op.attrs["static_offsets"] == DenseArrayAttr("i64", (DYNAMIC, 2))
    assert op.attrs["static_sizes"] == DenseArrayAttr("i64", (2, DYNAMIC))
    sv = subview_params(op)
    assert sv.source.name == "m" and sv.offsets[0].name == "i" and sv.offsets[1] == 2
    assert sv.sizes[1].name == "n" and sv.strides == [1, 1]
    rc = first(CASES["memref_reinterpret_cast"], "memref.reinterpret_cast")
    assert rc.attrs["operandSegmentSizes"] == DenseArrayAttr("i32", (1, 0, 1, 0))


def test_global_properties() -> None:
    m = parse(CASES["memref_globals"], "g.mlir")
    globs = {o.attrs["sym_name"].value: o for o in m.walk() if o.name == "memref.global"}
    c = globs["c"]
    assert c.attrs["sym_visibility"] == StringAttr("private")
    assert isinstance(c.attrs["constant"], UnitAttr)
    init = c.attrs["initial_value"]
    assert isinstance(init, DenseElementsAttr) and init.type == TensorType((2,), init.type.elem)
    assert isinstance(globs["u"].attrs["initial_value"], UnitAttr)
    assert "initial_value" not in globs["e"].attrs


def test_reshape_properties() -> None:
    ops = build(CASES["memref_reshapes"])
    ex = ops[0]
    assert ex.attrs["static_output_shape"] == DenseArrayAttr("i64", (DYNAMIC, 4))
    assert str(ex.attrs["reassociation"]) == "[[0, 1]]"
    assert [v.name for v in ex.operands] == ["d", "n"]


def test_extract_strided_metadata_results() -> None:
    op = first(CASES["memref_extract_strided_metadata"], "memref.extract_strided_metadata")
    assert len(op.results) == 6 and str(op.results[0].type) == "memref<f32>"


# ---- structure: bufferization -----------------------------------------------------------

def test_to_tensor_unit_attrs() -> None:
    ops = build(CASES["bufz_to_tensor_to_buffer"])
    assert set(ops[0].attrs) == {"restrict", "writable"}
    assert ops[1].attrs == {}
    assert set(ops[3].attrs) == {"read_only"}


def test_to_memref_becomes_to_buffer() -> None:
    op = build(OLD_FORMS["to_memref"][0])[0]
    assert op.name == "bufferization.to_buffer"


def test_alloc_tensor_segments() -> None:
    ops = build(CASES["bufz_alloc_tensor"])
    segs = [tuple(o.attrs["operandSegmentSizes"].values) for o in ops]
    assert segs == [(1, 0, 0), (0, 1, 0), (1, 0, 1), (0, 0, 0), (0, 1, 0)]
    p = alloc_tensor_parts(ops[4])
    assert p.copy.name == "u" and p.size_hint is None and p.dynamic_sizes == []
    assert alloc_tensor_parts(ops[2]).size_hint.name == "n"


def test_materialize_results() -> None:
    a, b = build(CASES["bufz_materialize"])
    assert len(a.results) == 1 and a.attrs == {}
    assert b.results == [] and set(b.attrs) == {"restrict", "writable"}


def test_dealloc_structure() -> None:
    ops = build(CASES["bufz_dealloc"])
    d = dealloc_parts(ops[0])
    assert [v.name for v in d.memrefs] == ["m", "n"]
    assert [v.name for v in d.conditions] == ["c", "d"]
    assert [v.name for v in d.retained] == ["n", "m"]
    assert [str(r.type) for r in ops[0].results] == ["i1", "i1"]
    segs = [tuple(o.attrs["operandSegmentSizes"].values) for o in ops]
    assert segs == [(2, 2, 2), (1, 1, 0), (0, 0, 0), (0, 0, 1), (1, 1, 1)]


# ---- errors -----------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    "  %x = memref.load %m[%i] : memref<4xf32>",                      # wrong memref type
    "  scf.for %j = %i to %i step %i iter_args(%a = %m) -> (f32) {\n  }",  # init type
    "  %r = scf.if %i -> (i32) {\n  }",                                # cond not i1
    "  bufferization.dealloc (%m : memref<8xf32>) if (%i, %i)",        # count mismatch
])
def test_type_errors_are_located(body: str) -> None:
    with pytest.raises(MLIRSyntaxError):
        parse(fn("%m: memref<8xf32>, %i: index", body), "bad.mlir")


# ---- the shared corpus ------------------------------------------------------------------

CORPUS = sorted(p for d in ("seeds", "torch") for p in (oracle.SHARED / "corpus" / d).glob("*.mlir")
                if re.search(r"\b(scf|memref|bufferization)\.", p.read_text()))


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_corpus_files_with_these_dialects_roundtrip(path) -> None:
    text = path.read_text()
    printed = print_module(parse(text, str(path)))
    assert oracle.normalize(printed) == oracle.normalize(text)


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(CASES))
def test_generic_form_input_prints_custom_syntax(name: str) -> None:
    """Ops read in MLIR's generic form (properties, explicit terminators, empty regions)
    print in custom syntax that means the same."""
    generic = oracle.mlir_opt(CASES[name], "--mlir-print-op-generic")
    printed = roundtrip(generic)
    assert '"scf.' not in printed and '"memref.' not in printed
    assert '"bufferization.' not in printed
    assert oracle.normalize(printed) == oracle.normalize(CASES[name]), printed
