"""vector: transfers between vectors and tensors or buffers.

Analysis: on tensors, ``transfer_read`` reads its source; ``transfer_write`` is
destination-style (its destination is written, in place equivalent to its result, and
read unless the write covers all of it: ``sem_transfer_write``); ``vector.mask`` runs
the one op of its region under a mask (its results are what that op's ``vector.yield``
passes; a write in it may leave part of its destination unwritten: ``sem_masking``).
Deallocation and the certificate of the output: which memref operand each vector op reads
or writes. Rewrite: the same transfer on the buffer (the write into a copy when the
analysis put its destination out of place); a mask keeps its op and drops its tensor
results, as mlir-opt does.
"""

from __future__ import annotations

from bufferlog.frontend.ir import Op

from . import PASS_THROUGH, mem, op, sem


@op("vector.transfer_read", sem.known(), sem.read(0), mem.access(), mem.read(0))
def transfer_read(bz, op: Op):
    read = bz.emit(op.name, [bz.B(op.operands[0]), *op.operands[1:]], [op.result.type], op.attrs)
    op.result.replace_all_uses_with(read.result)
    bz.dead.append(op)


@op("vector.transfer_write", sem.known(), sem.write(1), sem.alias(1, 0, "equivalent"),
    sem.transfer_write(0, 1), mem.access(), mem.write(1))
def transfer_write(bz, op: Op):
    b = bz.operand_buffer(op, 1)
    bz.emit(op.name, [op.operands[0], b, *op.operands[2:]], [], op.attrs)
    bz.done(op, b)


op("vector.load", mem.access(), mem.read(0))
op("vector.store", mem.access(), mem.write(1))
op("vector.maskedload", mem.access(), mem.read(0))
op("vector.maskedstore", mem.access(), mem.write(0))


@op("vector.gather", sem.known(), sem.read(0), mem.access(), mem.read(0))
def gather(bz, op: Op):
    """A gather from a tensor: the same gather from its buffer (read only, nothing
    aliases: mlir-opt's model)."""
    transfer_read(bz, op)


op("vector.scatter", mem.access(), mem.write(0))


MASK, YIELD = "vector.mask", "vector.yield"


@op(MASK, sem.known(), sem.yield_to_parent(YIELD), sem.unique_yield(YIELD), sem.masking())
def mask(bz, op: Op):
    """``vector.mask`` around one op: its body is bufferized; each tensor result is the
    buffer the masked op wrote (what the ``vector.yield`` passes), and the mask and its
    yield drop it, as mlir-opt does (the masked op on a buffer has no result)."""
    body = op.regions[0].entry
    for inner in body.ops[:-1]:  # a copy cannot go inside the mask: mlir-opt refuses
        if any(not bz.dec.inplace.get((bz.op_id.get(inner, -1), i), True)
               for i in bz.tensor_operands.get(inner, ())):
            bz.refuse(op, "'vector.mask' op body must bufferize in-place")
    yield body
    y = body.ops[-1]
    kept_operands, kept_results = [], []
    for k, v in enumerate(y.operands):
        if bz.t_use(y, k):
            bz.buf[op.results[k]] = bz.B(v)
        else:
            kept_operands.append(v)
            kept_results.append(op.results[k])
    y.set_operands(kept_operands)
    for i, r in enumerate(kept_results):
        r.index = i
    op.results = kept_results
    bz.ip = op


op(YIELD, sem.known(), sem.read(-1), sem.must_inplace(), traits=(PASS_THROUGH,))
