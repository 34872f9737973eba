"""Linear-time IR walking and editing for the backend.

* :func:`walk_ops` walks with an explicit stack: no Python recursion, so nesting depth
  (1,000 nested regions and more) is never limited by the interpreter's stack.
* :class:`BlockEdits` queues insertions before ops and removals of ops, then rewrites each
  touched block once: ``Block.insert_before`` / ``list.remove`` cost a scan of the block
  per call, quadratic over a 5,000-op function.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from bufferlog.frontend.ir import Block, Module, Op


def walk_ops(root: Op | Module) -> Iterator[Op]:
    """Every op under ``root`` (itself included), in pre-order (an op before the ops of its
    regions, regions and blocks in order), like ``Op.walk`` but with an explicit stack."""
    stack = [root.module_op if isinstance(root, Module) else root]
    while stack:
        op = stack.pop()
        yield op
        for r in reversed(op.regions):
            for b in reversed(r.blocks):
                stack.extend(reversed(b.ops))


class BlockEdits:
    """Queued edits of blocks, applied by :meth:`flush` in one pass per block."""

    def __init__(self) -> None:
        self._before: dict[Op, list[Op]] = defaultdict(list)
        self._removed: dict[Op, Block] = {}

    def insert_before(self, anchor: Op, op: Op) -> Op:
        """Queue ``op`` right before ``anchor`` (after the ops queued before it earlier).
        ``anchor`` may itself be queued."""
        op.parent = anchor.parent
        self._before[anchor].append(op)
        return op

    def remove(self, op: Op) -> None:
        """Queue ``op`` for removal from its block (its operand uses are dropped now)."""
        for u in op.operand_uses:
            u.value.uses.remove(u)
        op._uses = []
        self._removed[op] = op.parent

    def flush(self) -> None:
        blocks = {id(b): b for b in [a.parent for a in self._before] + list(self._removed.values())}
        while blocks:
            for blk in blocks.values():
                ops: list[Op] = []
                for op in blk.ops:
                    ops.extend(self._before.pop(op, ()))
                    if op not in self._removed:
                        ops.append(op)
                    else:
                        op.parent = None
                blk.ops = ops
            # anchors that were themselves queued are in their blocks now
            blocks = {id(a.parent): a.parent for a in self._before}
        self._removed.clear()
