"""Hoisting allocations out of the branches of an ``scf.if`` to the block that dominates
them (``branch_pair`` of rules/placement.dl decides; backend/plan_place.py moves them) (the part of mlir-opt's ``--buffer-hoisting`` that never raises the peak), before
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

from bufferlog.frontend.ir import Module


def hoist_to_dominator(module: Module, engine: str = "auto", rules_dir=None) -> int:
    """Replace pairs of allocations in the two branches of ``scf.if`` ops by one made
    before the ``scf.if`` (module doc); the number of pairs."""
    from .plan_place import hoist_to_dominator as place

    return place(module, engine, rules_dir)
