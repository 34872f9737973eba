"""Folds that mlir-opt's deallocation pipeline makes by canonicalizing, made on bufferized
IR before deallocation, so that bufferlog never keeps copies mlir-opt drops:

* a copy of a buffer onto itself (``memref.copy %a, %a``, ``linalg.copy ins(%a) outs(%a)``)
  copies nothing: it goes;
* an ``scf.if`` on a constant condition (``arith.constant``, or a comparison of two
  constants: :func:`backend.ops.arith.constant_condition`) is replaced by the region it always
  runs (the ops of its block before ``scf.yield``, whose operands replace its results);
  the other region, with any copies or allocations in it, goes.

Returns the number of folds (``bufferize --stats``: ``folded_copies`` / ``folded_ifs``).
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.ir import Module, Op

from bufferlog.core.records import record

from .ir_edit import walk_ops
from .ops import COPY, has
from .ops.scf import constant_branch
from .output_map import handover


@record
class FoldStats:
    self_copies: int = 0
    constant_ifs: int = 0


def _self_copy(op: Op) -> bool:
    if not has(op, COPY) or len(op.operands) != 2 or op.results:
        return False
    a, b = op.operands
    return a is b and isinstance(a.type, T.MemRefType)


def _constant_condition(op: Op) -> bool | None:
    return constant_branch(op)


def _drop(op: Op) -> None:
    """Erase ``op`` with everything nested in it (their operand uses dropped)."""
    handover(op)
    for inner in list(op.walk())[1:]:
        for u in inner.operand_uses:
            u.value.uses.remove(u)
        inner._uses = []
        inner.parent = None  # marks it gone for fold()'s walk
    op.erase()


def _inline(op: Op, taken: bool) -> None:
    region = op.regions[0 if taken else 1] if len(op.regions) > (0 if taken else 1) else None
    block = region.blocks[0] if region is not None and region.blocks else None
    outer = op.parent
    if block is not None:
        *body, yld = block.ops
        for inner in body:
            outer.insert_before(op, inner)
        for r, v in zip(op.results, yld.operands, strict=True):
            r.replace_all_uses_with(v)
        block.ops = [yld]
    _drop(op)


def fold(module: Module) -> FoldStats:
    stats = FoldStats()
    for op in list(walk_ops(module)):
        if op.parent is None:  # inside a region folded away already
            continue
        if _self_copy(op):
            handover(op)
            op.erase()
            stats.self_copies += 1
            continue
        cond = _constant_condition(op)
        if cond is not None and all(len(r.blocks) <= 1 for r in op.regions):
            _inline(op, cond)
            stats.constant_ifs += 1
    return stats
