"""Why each ``memref.alloc`` is freed where it is and what buffer it reuses
(``bufferlog explain F --alloc LINE``), read from the relations that placed it: each note
names the rule (relation and rule number, R1, R2 ... in program order) that derived it.

Notes are made after the frees are placed and before buffers are shared: a reuse moves a
free, so the notes on both allocations of a reuse say so.
"""

from __future__ import annotations

from collections import defaultdict

from bufferlog.engine.outputs import DeallocOutputs
from bufferlog.frontend.ir import Op

from bufferlog.core.records import value_class

from .ops import FREE, HEAP_ALLOC, has
from .plan_reuse import Reuse

#: the relations the notes cite (rules/plan.dl)
FREE_AFTER, FREE_ON_EDGE = DeallocOutputs.free_after.name, DeallocOutputs.free_on_edge.name
MAY_SHARE = DeallocOutputs.may_share.name


@value_class
class Note:
    """Something the rules decided about the allocation ``alloc``."""

    alloc: Op
    text: str
    relation: str  # the derived relation that decided it ("" when no rule did)
    rule: str  # its rule number (R1, R2 ...)


def free_notes(rel, facts, free_at_last_use: bool) -> list[Note]:
    """Where each ``memref.alloc`` of the module is freed, and by which rule."""
    after = {v: o for _, v, o in sorted(rel.free_after)} if free_at_last_use else {}
    ends: dict[int, set[int]] = defaultdict(set)
    for t, _, v in sorted(rel.free_on_edge):
        ends[v].add(t)
    notes = []
    for vid, val in enumerate(facts.values):
        op = getattr(val, "op", None)
        if op is None or not has(op, HEAP_ALLOC) or op.parent is None:
            continue
        last = facts.ops[after[vid]] if vid in after else None
        if last is not None and any(has(u.op, FREE) and u.op.parent is last.parent
                                    for u in val.uses):
            if last is op:
                notes.append(Note(op, "freed right after it is made: nothing in its block uses "
                                  "it", FREE_AFTER, "R2"))
            else:
                notes.append(Note(op, f"freed right after its last use, the {last.name} at "
                                  f"{last.loc} (uses through every alias counted)",
                                  FREE_AFTER, "R1"))
        elif vid in ends:
            for t in sorted(ends[vid]):
                top = facts.ops[t]
                notes.append(Note(op, f"freed before the {top.name} at {top.loc}, the end of "
                                  "its block", FREE_ON_EDGE, "R1" if top.successors else "R2"))
        else:
            notes.append(Note(op, "not freed under its own name: its buffer is handed on "
                              "(returned, yielded or forwarded) and freed where it arrives",
                              "", ""))
    return notes


def reuse_notes(reuses: list[Reuse]) -> list[Note]:
    """Both sides of each reuse."""
    notes = []
    for r in reuses:
        notes.append(Note(r.taker, f"removed: reuses the buffer of the memref.alloc at "
                          f"{r.giver.loc}, dead before this one is made and of the same "
                          "type; this one's free now frees that buffer", MAY_SHARE, "R1"))
        notes.append(Note(r.giver, f"its buffer is reused by the memref.alloc at {r.taker.loc}: "
                          "its free moves to where that one is freed", MAY_SHARE, "R1"))
    return notes
