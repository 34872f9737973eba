"""bufferization: the ops between tensors and buffers, and the ops bufferlog emits to
clone and free.

Analysis: ``to_tensor`` gives a read-only tensor unless ``writable``; ``to_buffer`` reads
its operand and writes it unless ``read_only``; ``alloc_tensor`` is a fresh tensor of
unspecified contents (unless it copies); ``materialize_in_destination`` writes its source
into its destination, in place. Deallocation: ``clone`` makes a heap buffer with a copy
of its operand, ``to_buffer``'s buffer is nobody's to free, ``dealloc`` frees its memrefs
under conditions. Rewrite: each op becomes its buffers (``to_tensor`` its memref, an
``alloc_tensor`` a ``memref.alloc``, ``materialize_in_destination`` a copy).
"""

from __future__ import annotations

from bufferlog.frontend.attrs import DenseArrayAttr, IntegerAttr
from bufferlog.frontend.ir import Op, Value

from ..layouts import memref_of, with_space
from . import CLONE, CONDITIONAL_FREE, mem, op, sem

TO_BUFFER = "bufferization.to_buffer"
TO_TENSOR = "bufferization.to_tensor"


@op(TO_TENSOR, sem.known(), sem.result_readonly("writable"), mem.access(), mem.read(0))
def to_tensor(bz, op: Op):
    bz.done(op, op.operands[0])


@op("bufferization.alloc_tensor", sem.known(), sem.read(-1), sem.result_no_write(),
    own_copy="bufferization.alloc_tensor copies its copy operand {0} into its new buffer")
def alloc_tensor(bz, op: Op):
    """A ``memref.alloc`` (in the op's memory space), with a copy of the ``copy`` operand."""
    from bufferlog.frontend.dialects.bufferization import alloc_tensor_parts

    p = alloc_tensor_parts(op)
    t = memref_of(op.result.type)
    space = op.attrs.get("memory_space")
    if space is not None:  # `1 : i64` is written `1` in a memref type
        space = IntegerAttr(space.value, None) if isinstance(space, IntegerAttr) and str(
            space.type) == "i64" else space
        t = with_space(t, space)
    b = bz.alloc(t, p.dynamic_sizes)
    if p.copy is not None:
        bz.copy(bz.B(p.copy), b)
    else:
        bz.undefined(b)
    bz.done(op, b)


@op("bufferization.materialize_in_destination", sem.known(), sem.read(0), sem.write(1),
    sem.alias(1, 0, "equivalent"), sem.must_inplace(),
    own_copy="bufferization.materialize_in_destination copies its source {0} into the destination")
def materialize_in_destination(bz, op: Op):
    """A copy of the source into the destination's buffer."""
    src, dst = op.operands
    if bz.t_use(op, 1):
        d = bz.operand_buffer(op, 1)
        bz.copy(bz.B(src), d)
        bz.done(op, d)
    else:
        bz.copy(bz.B(src), dst)
        bz.dead.append(op)


@op(TO_BUFFER, sem.known(), sem.read(0), sem.write_unless_attr(0, "read_only"), mem.unowned())
def to_buffer(bz, op: Op):
    """The operand's buffer (a copy when the analysis put it out of place: a
    ``to_buffer`` without ``read_only`` may be written through), as the result type.
    A tensor left on tensors (function boundaries off, unknown ops) keeps the op."""
    v = op.operands[0]
    if v in bz.boundary_at and v not in bz.buf and bz.dec.inplace.get((bz.op_id.get(op, -1), 0), True):
        bz.kept.add(op)
        return
    b = bz.to_type(bz.operand_buffer(op, 0), op.result.type)
    op.result.replace_all_uses_with(b)
    bz.dead.append(op)


op("bufferization.clone", mem.alloc(), mem.fresh(), mem.read(0), mem.clone(0), traits=(CLONE,),
   figure="clones")
op("bufferization.dealloc", mem.free_paired(), traits=(CONDITIONAL_FREE,),
   figure="bufferization_deallocs")


# -- builders -------------------------------------------------------------------------------

def to_buffer_op(v: Value, t) -> Op:
    """``bufferization.to_buffer`` of tensor ``v`` as a memref of type ``t``."""
    return Op(TO_BUFFER, [v], [t])


def to_tensor_op(b: Value, t) -> Op:
    """``bufferization.to_tensor`` of buffer ``b`` as a tensor of type ``t``."""
    return Op(TO_TENSOR, [b], [t])


def clone(v: Value, loc=None) -> Op:
    """``bufferization.clone``: a new heap buffer holding a copy of ``v``."""
    o = Op("bufferization.clone", [v], [v.type], {})
    if loc is not None:
        o.loc = loc
    return o


def dealloc(memrefs: list[Value], conds: list[Value], kept: list[Value]) -> Op:
    """``bufferization.dealloc (memrefs) if (conds) retain (kept)``: frees each memref
    whose condition holds, once per buffer, unless it is the buffer of a kept value; one
    i1 result per kept value."""
    from bufferlog.frontend.types import IntegerType

    return Op("bufferization.dealloc", [*memrefs, *conds, *kept], [IntegerType(1)] * len(kept),
              {"operandSegmentSizes": DenseArrayAttr("i32", (len(memrefs), len(conds), len(kept)))})
