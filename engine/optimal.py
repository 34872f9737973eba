"""``--strategy optimal``: the conflict-free in-place assignment with the fewest copied bytes.

Z3 Optimize holds one Boolean per decidable tensor use (in place or not) and a soft
constraint per use weighted by what putting it out of place costs: the bytes of its
tensor when the use reads it (a copy moves them; dynamic shapes weigh
``DYNAMIC_BYTES`` = 4096), else 1 (a fresh allocation, no copy). A hard constraint keeps
the total at most oneshot's, so the result is never worse than mlir-opt's greedy order.

Conflicts are added lazily (CEGAR): each model is re-checked by the analysis
(``Analysis.check_assignment``: the model replayed through ``run`` in the decision order,
each in-place use tested with ``try_inplace`` -- oneshot's own check, with this run's
callee summaries, loop equivalences and guards -- then every final alias set as a whole);
a conflict blocks its cause (``Analysis.cause``: the write and the in-place uses on the
shortest alias path from the read or read-only value to it, and through calls the callee
uses that make the callee write or alias). All of them in place rebuild that path; the
conflict could only vanish through an exemption that rests on equivalences of other uses,
so a clause may, rarely, cut off a conflict-free assignment -- never admit a conflicting
one, since the returned model passed the whole re-check. Out of iterations or time, the
oneshot assignment is kept.
"""

from __future__ import annotations

import time

from .oneshot import Analysis, Decisions


def weight(an: Analysis, u: tuple[int, int]) -> int:
    return an.copy_bytes(u) if u in an.reads or u in an.read_via_alias else 1


def cost(an: Analysis, inplace: dict, uses) -> int:
    return sum(weight(an, u) for u in uses if not inplace.get(u, True))


def optimize(an: Analysis, base: Decisions, max_iter: int = 200, budget_s: float = 8.0) -> Decisions:
    import z3

    uses = list(base.order)
    if not uses:
        return base
    base_cost = cost(an, base.inplace, uses)
    ctx = z3.Context()  # private context: Z3 contexts are not thread-safe
    x = {u: z3.Bool(f"ip_{u[0]}_{u[1]}", ctx) for u in uses}
    opt = z3.Optimize(ctx=ctx)
    opt.set("timeout", int(budget_s * 1000))
    opt.add(z3.Sum([z3.If(x[u], 0, weight(an, u)) for u in uses]) <= base_cost)
    for u in uses:
        opt.add_soft(x[u], weight(an, u))
    start = time.perf_counter()
    chosen = None
    for _ in range(max_iter):
        if time.perf_counter() - start > budget_s or opt.check() != z3.sat:
            break
        m = opt.model()
        assign = {u: z3.is_true(m.eval(x[u], model_completion=True)) for u in uses}
        found = an.check_assignment(assign)
        if not found:
            chosen = assign
            break
        for _c, cause in found:
            lits = [z3.Not(x[u]) for u in cause if u in x]
            if not lits:
                break
            opt.add(z3.Or(lits))
    if chosen is None or cost(an, chosen, uses) > base_cost:
        an.run()  # restore the oneshot state
        return base
    dec = an.run(fixed=chosen)
    dec.conflicts = {u: c for u, c in base.conflicts.items() if not chosen.get(u, True)}
    return dec
