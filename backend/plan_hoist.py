"""Hoisting allocations out of the branches of an ``scf.if`` to the block that dominates
them (the part of mlir-opt's ``--buffer-hoisting`` that never raises the peak), before
deallocation: ``bufferize --hoist-to-dominator``.

Each branch of an ``scf.if`` with two non-empty branches that allocates a buffer of the
same static type in the same role pays one allocation whichever branch runs: one
``memref.alloc`` made before the ``scf.if`` serves both. A pair is hoisted when:

* each branch yields only memrefs it allocates itself (so no buffer from outside is
  freed inside a branch, before the allocation: holding it earlier would overlap);
* both are operand-free ``memref.alloc`` of the identical static type, and each is the
  first op of its branch that allocates (what the branch makes before it was hoisted
  already): holding the buffer earlier holds it across no other allocation or free;
* no alias of either leaves its branch except as an operand of the branch's
  ``scf.yield``, at the same result positions in both (``role``);
* a buffer the branch does not yield is one the branch would free at its end or
  earlier: it is hoisted only when nothing else in its branch allocates, so freeing
  it right after the ``scf.if`` instead holds it across no other allocation.

The hoisted buffer is one allocation either way; the ``scf.if`` results it feeds are the
same buffer on both paths, so the deallocation frees it once, after the last use of any of
its aliases, without a runtime ownership test, and a small local one can then go to the
stack (``--promote-buffers-to-stack``). Loops are not entered (``--hoist-out-of-loops``
handles them); nested ``scf.if``s are hoisted innermost first, so a buffer can rise
through several.
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.ir import Block, Module, Op

from .ir_edit import walk_ops
from .output_map import handover
from .plan_stack import CALLS, is_local, static_alloc

#: ops that make no new buffer although they return a memref (views, casts, selects, ...)
_NO_ALLOC = ("memref.subview", "memref.cast", "memref.reinterpret_cast", "memref.expand_shape",
             "memref.collapse_shape", "memref.view", "memref.transpose", "memref.get_global",
             "memref.alloca", "memref.extract_strided_metadata", "arith.select")


def _allocates(op: Op) -> bool:
    """``op`` may make a heap buffer, itself (an alloc, clone, call, unknown op with a memref
    result) or in its regions."""
    if op.name in CALLS or (op.name not in _NO_ALLOC and any(
            isinstance(r.type, (T.MemRefType, T.UnrankedMemRefType)) for r in op.results)):
        return True
    return any(_allocates(x) for r in op.regions for b in r.blocks for x in b.ops)


def _yields_own(block: Block) -> bool:
    """Each memref the branch yields is made by an allocation of the branch itself: the
    branch then takes no ownership from outside, so no outer buffer is freed in it."""
    return all(getattr(v, "op", None) is not None and v.op.parent is block
               and v.op.name == "memref.alloc" for v in block.ops[-1].operands
               if isinstance(v.type, (T.MemRefType, T.UnrankedMemRefType)))


def _head(block: Block) -> tuple[Op, tuple] | None:
    """The first op of ``block`` that allocates, with its (type, role), if it may be
    hoisted: a static ``memref.alloc`` whose aliases leave the branch only through its
    ``scf.yield``, yielded or else the last allocation of the branch."""
    allocating = [op for op in block.ops if _allocates(op)]
    if not allocating or not static_alloc(allocating[0]):
        return None
    v, yld = allocating[0].results[0], block.ops[-1]
    if not is_local(v, exit=yld):
        return None
    role = tuple(k for k, w in enumerate(yld.operands) if w is v)
    if not role and len(allocating) > 1:
        return None  # freed in the branch, before a later allocation of the branch
    return allocating[0], (v.type, role)


def hoist_to_dominator(module: Module) -> int:
    """Replace pairs of allocations in the two branches of ``scf.if`` ops by one made
    before the ``scf.if`` (module doc); the number of pairs."""
    ifs = [op for op in walk_ops(module) if op.name == "scf.if" and len(op.regions) == 2
           and all(len(r.blocks) == 1 for r in op.regions)]
    hoisted = 0
    for op in reversed(ifs):  # innermost first
        blocks = [r.blocks[0] for r in op.regions]
        if not all(_yields_own(b) for b in blocks):
            continue
        while True:
            heads = [_head(b) for b in blocks]
            if None in heads or heads[0][1] != heads[1][1]:
                break
            (x, _), (y, _) = heads
            x.parent.ops.remove(x)
            op.parent.insert_before(op, x)
            y.results[0].replace_all_uses_with(x.results[0])
            handover(y)
            y.erase()
            hoisted += 1
    return hoisted
