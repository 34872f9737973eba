"""Lower ``cf.switch`` into a chain of ``cf.cond_br`` so the dealloc backend's two-way
branch model (edges ``c`` / ``not c``, per-edge retain and dealloc sets) applies to it.

    cf.switch %f : i32, [default: ^d(%x), 4: ^a(%y), 7: ^b]
becomes
    %c4 = arith.constant 4 : i32
    %e4 = arith.cmpi eq, %f, %c4 : i32
    cf.cond_br %e4, ^a(%y), ^s1
  ^s1:                              // a new block right after the switch's block
    %c7 = arith.constant 7 : i32
    %e7 = arith.cmpi eq, %f, %c7 : i32
    cf.cond_br %e7, ^b, ^d(%x)

Cases are tested in order (MLIR's verifier rejects duplicate case values, so order does
not change the meaning); a switch without cases becomes ``cf.br`` to its default. The
values forwarded stay defined in the switch's block, which dominates the new blocks.
"""

from __future__ import annotations

from bufferlog.frontend.attrs import DenseArrayAttr, IntegerAttr
from bufferlog.frontend.dialects.arith_math_cf import switch_case_values
from bufferlog.frontend.ir import Block, Module, Op
from bufferlog.frontend.types import IntegerType

from .ir_edit import walk_ops

I1 = IntegerType(1)
CMPI_EQ = IntegerAttr(0, IntegerType(64))  # arith.cmpi predicate enum: 0 = eq


def lower_switches(module: Module) -> int:
    """Rewrite every ``cf.switch`` in ``module``; return how many were lowered."""
    switches = [op for op in walk_ops(module) if op.name == "cf.switch"]
    for sw in switches:
        _lower(sw)
    return len(switches)


def _lower(sw: Op) -> None:
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
        c = blk.append(Op("arith.constant", (), [flag.type],
                          {"value": IntegerAttr(value, flag.type)}, loc=loc))
        e = blk.append(Op("arith.cmpi", [flag, c.result], [I1],
                          {"predicate": CMPI_EQ}, loc=loc))
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

