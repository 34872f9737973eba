"""cf: branches between the blocks of a region (``cf.br``, ``cf.cond_br``, ``cf.switch``).

Analysis: a branch forwards each successor operand to that block's argument (equivalent,
neither read nor written: ``sem_branch``). Deallocation: the same forwarding, and which
edge a condition selects (``mem_branch``, ``mem_branch_cond``). Rewrite: tensor successor
operands become their buffers (a fresh copy when the analysis put one out of place),
cast to the block argument's memref type once it is decided
(:meth:`backend.bufferize.Bufferizer.block_args`). ``cf.switch`` is lowered to a chain of
``cf.cond_br`` before deallocation (:func:`lower_switch`), whose model is two-way.
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import DenseArrayAttr
from bufferlog.frontend.ir import Block, Op

from ..layouts import space_of
from . import SWITCH, arith, mem, op, sem


def successor_slots(op: Op) -> list[tuple[int, int]]:
    """(successor, block argument) each operand of a branch is forwarded to (``(-1, -1)``
    for the leading operands that are not forwarded: a condition or a switch flag)."""
    counts = [len(op.successor_operands(s)) for s in range(len(op.successors))]
    slots = [(-1, -1)] * (len(op.operands) - sum(counts))
    for s, c in enumerate(counts):
        slots += [(s, k) for k in range(c)]
    return slots


@op("cf.br", sem.branch(), mem.branch())
@op("cf.cond_br", sem.branch(), mem.branch(), mem.branch_cond(0, 0, 1), mem.branch_cond(0, 1, 0))
@op("cf.switch", traits=(SWITCH,))
def branch(bz, op: Op):
    """Tensor successor operands become their buffers (a fresh copy when the analysis put
    the operand out of place), cast to the block argument's type -- or recorded until
    that type is decided (``Bufferizer.block_args``)."""
    new = list(op.operands)
    for i, (s, k) in enumerate(successor_slots(op)):
        if s < 0 or not bz.t_use(op, i):
            continue
        blk = op.successors[s]
        b = bz.operand_buffer(op, i)
        if T.is_tensor(blk.args[k].type):
            bz.pending.setdefault(blk, []).append((op, i, k))
            new[i] = b
        else:
            if space_of(b.type) != space_of(blk.args[k].type):
                bz.inconsistent_block_arg(blk)
            new[i] = bz.to_type(b, blk.args[k].type)
    op.set_operands(new)


# -- cf.switch -> cf.cond_br chain (the deallocation's branches are two-way) -------------

def lower_switch(sw: Op) -> None:
    """Rewrite ``cf.switch`` ``sw`` into a chain of ``cf.cond_br``::

        cf.switch %f : i32, [default: ^d(%x), 4: ^a(%y), 7: ^b]
    becomes
        %c4 = arith.constant 4 : i32
        %e4 = arith.cmpi eq, %f, %c4 : i32
        cf.cond_br %e4, ^a(%y), ^s1
      ^s1:                              // a new block right after the switch's block
        %c7 = arith.constant 7 : i32
        %e7 = arith.cmpi eq, %f, %c7 : i32
        cf.cond_br %e7, ^b, ^d(%x)

    Cases are tested in order (MLIR's verifier rejects duplicate case values, so order
    does not change the meaning); a switch without cases becomes ``cf.br`` to its
    default. The values forwarded stay defined in the switch's block, which dominates the
    new blocks."""
    from bufferlog.frontend.dialects.arith_math_cf import switch_case_values

    flag = sw.operands[0]
    targets = [(b, list(sw.successor_operands(i))) for i, b in enumerate(sw.successors)]
    default, cases = targets[0], list(zip(switch_case_values(sw), targets[1:], strict=True))
    blk, loc = sw.parent, sw.loc
    region = blk.parent
    blk.ops.remove(sw)
    for u in sw.operand_uses:
        u.value.uses.remove(u)
    sw.parent = None
    if not cases:
        blk.append(Op("cf.br", default[1], (), {}, successors=[default[0]], loc=loc))
        return
    at = region.blocks.index(blk)
    for k, (value, (target, args)) in enumerate(cases):
        last = k == len(cases) - 1
        c = blk.append(arith.constant_int(value, flag.type))
        e = blk.append(arith.cmpi_eq(flag, c.result))
        c.loc = e.loc = loc
        if last:
            other, other_args = default
        else:
            other, other_args = Block(), []
            at += 1
            region.blocks.insert(at, other)
            other.parent = region
        blk.append(Op("cf.cond_br", [e.result, *args, *other_args], (), {
            "operandSegmentSizes": DenseArrayAttr("i32", (1, len(args), len(other_args)))},
            successors=[target, other], loc=loc))
        blk = other
