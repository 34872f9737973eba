"""mlir-opt's ``-expand-realloc``: every ``memref.realloc`` becomes the ops it stands for.

``%b = memref.realloc %a(%n) : memref<KxT> to memref<?xT>`` grows the buffer only when
the new size is larger: an ``scf.if`` on ``old size < new size`` allocates the new buffer,
copies the old contents into its first elements (through a ``memref.subview``) and, with
``emit_deallocs`` (mlir-opt's default), frees the old buffer; otherwise it reinterprets
the old buffer at the new size. The old size is the static dimension or a ``memref.dim``;
the new one ``%n`` or a constant. The ops are those mlir-opt writes, in its order.
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import DenseArrayAttr, IntegerAttr, StridedLayoutAttr
from bufferlog.frontend.dialects import DYNAMIC
from bufferlog.frontend.ir import Block, Module, Op, Region

from .ir_edit import walk_ops

INDEX = T.IndexType()
I1 = T.IntegerType(1)
CMPI_ULT = IntegerAttr(6, T.IntegerType(64))  # arith.cmpi predicate enum: 6 = ult


def expand_realloc(module: Module, emit_deallocs: bool = True) -> int:
    """Expand every ``memref.realloc`` of ``module``; returns how many."""
    reallocs = [op for op in walk_ops(module) if op.name == "memref.realloc"]
    for op in reallocs:
        _expand(op, emit_deallocs)
    return len(reallocs)


def _const(n: int, loc) -> Op:
    return Op("arith.constant", (), [INDEX], {"value": IntegerAttr(n, INDEX)}, loc=loc)


def _i64s(*xs: int) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(xs))


def _i32s(*xs: int) -> DenseArrayAttr:
    return DenseArrayAttr("i32", tuple(xs))


def _expand(op: Op, emit_deallocs: bool) -> None:
    blk, loc = op.parent, op.loc
    src, sizes = op.operands[0], list(op.operands[1:])
    st, rt = src.type, op.results[0].type
    before: list[Op] = []

    def add(o: Op) -> Op:
        o.cause = "expanded memref.realloc (expand-realloc)"
        before.append(o)
        return o

    if st.shape[0] is None:
        c0 = add(_const(0, loc))
        old = add(Op("memref.dim", [src, c0.result], [INDEX], {}, loc=loc)).result
    else:
        old = add(_const(st.shape[0], loc)).result
    new = sizes[0] if sizes else add(_const(rt.shape[0], loc)).result
    grow = add(Op("arith.cmpi", [old, new], [I1], {"predicate": CMPI_ULT}, loc=loc))

    then_b, else_b = Block(), Block()
    alloc_attrs = {"operandSegmentSizes": _i32s(len(sizes), 0)}
    if "alignment" in op.attrs:
        alloc_attrs["alignment"] = op.attrs["alignment"]
    alloc = then_b.append(Op("memref.alloc", sizes, [rt], alloc_attrs, loc=loc))
    dyn_old = st.shape[0] is None
    view = then_b.append(Op("memref.subview", [alloc.result, *([old] if dyn_old else [])],
                            [_view_type(st, rt)], {
                                "operandSegmentSizes": _i32s(1, 0, int(dyn_old), 0),
                                "static_offsets": _i64s(0),
                                "static_sizes": _i64s(DYNAMIC if dyn_old else st.shape[0]),
                                "static_strides": _i64s(1)}, loc=loc))
    then_b.append(Op("memref.copy", [src, view.result], (), {}, loc=loc))
    if emit_deallocs:
        then_b.append(Op("memref.dealloc", [src], (), {}, loc=loc))
    then_b.append(Op("scf.yield", [alloc.result], (), {}, loc=loc))
    dyn_new = rt.shape[0] is None
    cast = else_b.append(Op("memref.reinterpret_cast", [src, *([new] if dyn_new else [])],
                            [rt], {
                                "operandSegmentSizes": _i32s(1, 0, int(dyn_new), 0),
                                "static_offsets": _i64s(0),
                                "static_sizes": _i64s(DYNAMIC if dyn_new else rt.shape[0]),
                                "static_strides": _i64s(1)}, loc=loc))
    else_b.append(Op("scf.yield", [cast.result], (), {}, loc=loc))
    for b in (then_b, else_b):
        for o in b.ops:
            o.cause = "expanded memref.realloc (expand-realloc)"
    sel = add(Op("scf.if", [grow.result], [rt], {}, [Region([then_b]), Region([else_b])],
                 loc=loc))
    for o in before:
        blk.insert_before(op, o)
    op.results[0].replace_all_uses_with(sel.results[0])
    op.erase()


def _view_type(st, rt) -> T.MemRefType:
    """The type of the subview of the new buffer the old contents go to: the old shape,
    unit stride, offset 0 (what mlir-opt's subview infers), in the new buffer's space."""
    return T.MemRefType((st.shape[0],), st.elem, StridedLayoutAttr((1,), 0), rt.memspace)
