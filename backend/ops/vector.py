"""vector: transfers between vectors and tensors or buffers.

Analysis: on tensors, ``transfer_read`` reads its source; ``transfer_write`` is
destination-style (its destination is written, in place equivalent to its result, and
read unless the write covers all of it: ``sem_transfer_write``). Deallocation and the
certificate of the output: which memref operand each vector op reads or writes. Rewrite:
the same transfer on the buffer (the write into a copy when the analysis put its
destination out of place).
"""

from __future__ import annotations

from bufferlog.frontend.ir import Op

from . import mem, op, sem


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
op("vector.gather", mem.access(), mem.read(0))
op("vector.scatter", mem.access(), mem.write(0))
