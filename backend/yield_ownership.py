"""The rewrite's loop-yield stage: what each run of a loop's region passes on to the next
run as it is, and what it copies, decided by ``rules/yield_ownership.dl`` on the memref
program the rewrite wrote; this module only materialises the verdict.

During the rewrite, each loop terminator's carried buffer is passed on as it is (cast to
the carried type; a copy only where no cast can make that type) and noted as a *slot*.
Once every function is rewritten, one run of the rules over the whole module decides
each slot: ``yield_copy`` (the run does not own the buffer, or an earlier operand passes
it on already: a fresh copy), ``yield_mine`` (the buffer is always the one the slot
received: that one is passed, as deallocation expects), else as it is.
"""

from __future__ import annotations

from bufferlog.frontend.ir import Op, Value

from .ops.memref import strip_casts

YIELD_OWNERSHIP_MAIN = "yield_ownership.dl"


class Slot:
    """Operand ``k`` of loop terminator ``term``: ``buffer`` (the value's buffer before the
    cast), passed on as carried type ``type``; ``why(root, reused)`` the cause of a copy.
    (A plain class: a run imports neither ``typing`` nor ``dataclasses``' helpers.)"""

    __slots__ = ("term", "k", "buffer", "type", "why")

    def __init__(self, term: Op, k: int, buffer: Value, type, why) -> None:
        self.term, self.k, self.buffer, self.type, self.why = term, k, buffer, type, why


def decide(bz, slots: list[Slot], engine: str = "auto", rules_dir=None) -> int:
    """Run rules/yield_ownership.dl on the rewritten module and apply its verdict to
    ``slots``; the number of copies made."""
    from bufferlog.engine.interface import load, outputs
    from bufferlog.engine.outputs import YieldOwnershipOutputs
    from bufferlog.engine.run import run
    from bufferlog.frontend.facts import export

    if not slots:
        return 0
    prog = load(YIELD_OWNERSHIP_MAIN, rules_dir, lenient=True)
    facts = export(bz.m)
    rows = {k: v for k, v in facts.rows.items() if k in prog.inputs}
    out = YieldOwnershipOutputs(run(prog, rows, engine=engine, relations=outputs(YIELD_OWNERSHIP_MAIN)).relations)
    copy = {(facts.ops[r.t], r.k): r.why for r in out.yield_copy}
    mine = {(facts.ops[r.t], r.k): facts.values[r.m] for r in out.yield_mine}
    made = 0
    for s in slots:
        key = (s.term, s.k)
        bz.ip = s.term
        if key in copy:
            with bz.because(s.why(strip_casts(s.buffer), copy[key] == "shared") if s.why else None):
                s.term.set_operand(s.k, bz.to_type(bz.fresh_copy(s.buffer), s.type))
            made += 1
        elif key in mine and mine[key] is not strip_casts(s.term.operands[s.k]):
            s.term.set_operand(s.k, bz.cast(mine[key], s.type))
    bz.edits.flush()
    return made

