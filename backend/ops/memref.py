"""memref: the buffers bufferized programs work on.

No memref op is rewritten (the input is already on buffers); their models are the memref
facts the deallocation and the certificate of the output read (what each op allocates,
frees, views, reads and writes: ``mem_*``), the traits the backend asks, and the builders
of the memref ops every rewrite emits (``alloc``, ``copy``, ``subview``, ...).
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import DenseArrayAttr, StridedLayoutAttr, SymbolRefAttr, dense_i64
from bufferlog.frontend.dialects import DYNAMIC
from bufferlog.frontend.dialects._smb import segments
from bufferlog.frontend.ir import Block, Op, Region, Value

from . import (
    CAST,
    COPY,
    FREE,
    HEAP_ALLOC,
    REALLOC,
    RESHAPE_VIEW,
    STACK_ALLOC,
    mem,
    op,
)

INDEX = T.IndexType()

ALLOC = "memref.alloc"
ALLOCA = "memref.alloca"
DEALLOC = "memref.dealloc"
GET_GLOBAL = "memref.get_global"
SUBVIEW = "memref.subview"

# -- allocation and free ------------------------------------------------------------------
op(ALLOC, mem.alloc(), mem.fresh(), mem.stack_form(ALLOCA), traits=(HEAP_ALLOC,), figure="allocs")
op(ALLOCA, mem.unowned(), mem.fresh(), traits=(STACK_ALLOC,), figure="allocas")
op(GET_GLOBAL, mem.unowned(), mem.global_("name"))
op("memref.realloc", mem.alloc(), mem.free(0), mem.read(0), traits=(REALLOC,), figure="allocs")
op(DEALLOC, mem.free(0), traits=(FREE,), figure="memref_deallocs")

# -- views: result 0 is the buffer of operand 0 ---------------------------------------------
op(SUBVIEW, mem.view(0), slice_leading=1)
op("memref.cast", mem.view(0), mem.same_elements(), traits=(CAST, RESHAPE_VIEW))
op("memref.reinterpret_cast", mem.view(0))
op("memref.expand_shape", mem.view(0), traits=(RESHAPE_VIEW,))
op("memref.collapse_shape", mem.view(0), traits=(RESHAPE_VIEW,))
op("memref.view", mem.view(0))
op("memref.assume_alignment", mem.view(0), mem.same_elements())
op("memref.transpose", mem.view(0))
op("memref.reshape", mem.view(0))
op("memref.memory_space_cast", mem.view(0), mem.same_elements())
op("memref.extract_strided_metadata", mem.view(0))

# -- accesses: contents only ----------------------------------------------------------------
op("memref.load", mem.access(), mem.element(0), mem.read(0))
op("memref.store", mem.write_only(1), mem.access(), mem.element(1), mem.write(1))
op("memref.copy", mem.access(), mem.read(0), mem.copy(0, 1), mem.write(1), traits=(COPY,),
   figure="copies")
op("memref.dim", mem.access())
op("memref.rank", mem.access())
op("memref.prefetch", mem.access())
op("memref.atomic_rmw", mem.access(), mem.read(1), mem.write(1))
op("memref.generic_atomic_rmw", mem.access(), mem.read(0), mem.write(0))
op("memref.extract_aligned_pointer_as_index", mem.access())
op("memref.dma_start", mem.access(), mem.read(-1), mem.write(-1))
op("memref.dma_wait", mem.access())


# -- builders -------------------------------------------------------------------------------

def alloc(t, dyn=()) -> Op:
    """``memref.alloc`` of type ``t`` (``dyn``: its dynamic sizes)."""
    return Op(ALLOC, list(dyn), [t], {"operandSegmentSizes": segments(len(dyn), 0)})


def dealloc(v: Value) -> Op:
    return Op(DEALLOC, [v], [])


def copy(src: Value, dst: Value) -> Op:
    return Op("memref.copy", [src, dst], [])


def cast(v: Value, t) -> Op:
    return Op("memref.cast", [v], [t])


def dim(v: Value, i: Value) -> Op:
    return Op("memref.dim", [v, i], [INDEX])


def aligned_pointer(v: Value) -> Op:
    """``memref.extract_aligned_pointer_as_index`` of ``v``: its buffer's address (a
    pointer comparison tells whether two memrefs are one buffer at run time)."""
    return Op("memref.extract_aligned_pointer_as_index", [v], [INDEX])


def rank(v: Value) -> Op:
    return Op("memref.rank", [v], [INDEX])


def load(b: Value, indices, t) -> Op:
    return Op("memref.load", [b, *indices], [t])


def store(x: Value, b: Value, indices) -> Op:
    return Op("memref.store", [x, b, *indices], [])


def subview(b: Value, offs, sizes, strides, rt) -> Op:
    """``memref.subview`` of ``b`` of result type ``rt``: offsets, sizes and strides are
    ints (static) or index values (dynamic)."""
    attrs, dyn = {}, []
    for key, vals in (("static_offsets", offs), ("static_sizes", sizes), ("static_strides", strides)):
        attrs[key] = dense_i64([x if isinstance(x, int) else DYNAMIC for x in vals])
        dyn.append([x for x in vals if not isinstance(x, int)])
    attrs["operandSegmentSizes"] = segments(1, *map(len, dyn))
    return Op(SUBVIEW, [b, *dyn[0], *dyn[1], *dyn[2]], [rt], attrs)


def expand_shape(b: Value, dyn, rt, reassociation, static_output_shape) -> Op:
    return Op("memref.expand_shape", [b, *dyn], [rt], {
        "reassociation": reassociation, "static_output_shape": static_output_shape})


def collapse_shape(b: Value, rt, reassociation) -> Op:
    return Op("memref.collapse_shape", [b], [rt], {"reassociation": reassociation})


def reshape(b: Value, shape: Value, t) -> Op:
    return Op("memref.reshape", [b, shape], [t])


def global_(attrs: dict) -> Op:
    """A module-level ``memref.global`` with attributes ``attrs``."""
    return Op("memref.global", [], [], attrs)


def get_global(name: str, t) -> Op:
    return Op(GET_GLOBAL, [], [t], {"name": SymbolRefAttr(name)})


# -- queries --------------------------------------------------------------------------------

def strip_casts(v: Value) -> Value:
    """The buffer ``v`` is a chain of casts of."""
    while getattr(v, "op", None) is not None and v.op.name == "memref.cast":
        v = v.op.operands[0]
    return v


def made_by(v: Value, name: str) -> Op | None:
    """The op of kind ``name`` (of this family) that defines ``v``, else None."""
    o = getattr(v, "op", None)
    return o if o is not None and o.name == name else None


def is_alloc(v: Value) -> bool:
    """``v`` is the result of a ``memref.alloc`` (a fresh heap buffer)."""
    return made_by(v, ALLOC) is not None


def is_global(v: Value) -> bool:
    """``v`` is a global's buffer (``memref.get_global``: read-only when constant)."""
    return made_by(v, GET_GLOBAL) is not None


def is_subview(v: Value) -> bool:
    return made_by(v, SUBVIEW) is not None


# -- memref.realloc -> the ops it stands for (mlir-opt's -expand-realloc) -------------------

EXPANDED_REALLOC = "expanded memref.realloc (expand-realloc)"


def expand_realloc(op: Op, emit_deallocs: bool = True) -> None:
    """Replace ``memref.realloc`` ``op`` by the ops mlir-opt's ``-expand-realloc`` writes, in
    its order: an ``scf.if`` on ``old size < new size`` allocates the new buffer, copies the
    old contents into its first elements (through a ``memref.subview``) and, with
    ``emit_deallocs``, frees the old buffer; otherwise it reinterprets the old buffer at the
    new size. The old size is the static dimension or a ``memref.dim``; the new one the
    size operand or a constant."""
    from . import arith, scf

    blk, loc = op.parent, op.loc
    src, sizes = op.operands[0], list(op.operands[1:])
    st, rt = src.type, op.results[0].type
    before: list[Op] = []

    def add(o: Op) -> Op:
        o.loc = loc
        before.append(o)
        return o

    if st.shape[0] is None:
        c0 = add(arith.constant_index(0))
        old = add(dim(src, c0.result)).result
    else:
        old = add(arith.constant_index(st.shape[0])).result
    new = sizes[0] if sizes else add(arith.constant_index(rt.shape[0])).result
    grow = add(arith.cmpi_ult(old, new))

    then_b, else_b = Block(), Block()
    new_buf = alloc(rt, sizes)
    if "alignment" in op.attrs:
        new_buf.attrs["alignment"] = op.attrs["alignment"]
    then_b.append(new_buf)
    dyn_old = st.shape[0] is None
    # the old contents go to the subview of the old shape, unit stride, offset 0 (what
    # mlir-opt's subview infers), in the new buffer's space
    view_t = T.MemRefType((st.shape[0],), st.elem, StridedLayoutAttr((1,), 0), rt.memspace)
    view = then_b.append(Op(SUBVIEW, [new_buf.result, *([old] if dyn_old else [])], [view_t], {
        "operandSegmentSizes": DenseArrayAttr("i32", (1, 0, int(dyn_old), 0)),
        "static_offsets": dense_i64((0,)),
        "static_sizes": dense_i64((DYNAMIC if dyn_old else st.shape[0],)),
        "static_strides": dense_i64((1,))}))
    then_b.append(copy(src, view.result))
    if emit_deallocs:
        then_b.append(dealloc(src))
    then_b.append(scf.yield_([new_buf.result]))
    dyn_new = rt.shape[0] is None
    moved = else_b.append(Op("memref.reinterpret_cast", [src, *([new] if dyn_new else [])], [rt], {
        "operandSegmentSizes": DenseArrayAttr("i32", (1, 0, int(dyn_new), 0)),
        "static_offsets": dense_i64((0,)),
        "static_sizes": dense_i64((DYNAMIC if dyn_new else rt.shape[0],)),
        "static_strides": dense_i64((1,))}))
    else_b.append(scf.yield_([moved.result]))
    for b in (then_b, else_b):
        for o in b.ops:
            o.loc = loc
    sel = add(scf.if_op(grow.result, [rt], [Region([then_b]), Region([else_b])]))
    for o in (*before, *then_b.ops, *else_b.ops):
        o.cause = EXPANDED_REALLOC
    for o in before:
        blk.insert_before(op, o)
    op.results[0].replace_all_uses_with(sel.results[0])
    op.erase()
