"""``--strategy optimal``: per layer of the call graph, the conflict-free in-place
assignment with the fewest copied bytes.

Z3 Optimize holds a Boolean per decidable tensor use of the layer's functions that a
conflict found so far blames (in place or not; every other use is in place) and a soft
constraint per such use weighted by what putting it out of place costs: the bytes of its
tensor when the use reads it (a copy moves them; dynamic shapes weigh
``DYNAMIC_BYTES``), else 1 (a fresh allocation, no copy). An assignment costing more
than the greedy order's (mlir-opt's) for the same layer is never taken, so the result is
never worse. Conflicts are the rules' (the same RaW triples, read-only and parallel checks the
greedy order uses) and are added lazily: each model is replayed on a copy of the decision
state (engine/greedy.py ``decide(f, fixed=...)``) and what it breaks blocks its cause,
the in-place uses on the alias path between the read and the write. A user's
``must_copy`` is a hard constraint. Out of iterations or time, the greedy assignment is
kept. Callees are decided before their callers, each layer optimally given the layers
below.
"""

from __future__ import annotations

import time

from .greedy import Greedy, Use


def weight(g: Greedy, u: Use) -> int:
    view = g.view
    return view.copy_bytes(u) if u in view.reads or u in view.read_via_alias else 1


def replay(g: Greedy, layer: list[int], assign: dict[Use, bool] | None) -> Greedy:
    """A copy of ``g`` with the layer decided: by the greedy order (``assign`` None) or
    as ``assign`` says."""
    h = g.clone()
    for f in layer:
        h.decide(f, fixed=assign)
    return h


def decide_layer(g: Greedy, layer: list[int], max_iter: int = 200, budget_s: float = 8.0) -> None:
    start_order = len(g.dec.order)
    greedy = replay(g, layer, None)
    uses = greedy.dec.order[start_order:]
    base = {u: greedy.inplace.get(u, True) for u in uses}
    chosen = None
    if uses:
        chosen = _search(g, layer, uses, max_iter, budget_s, cost(g, base))
        if chosen is not None and cost(g, chosen) > cost(g, base):
            chosen = None  # a model that is not the optimum (never expected): keep greedy
    final = chosen if chosen is not None else base
    for f in layer:
        g.decide(f, fixed=final)
    for u in uses:
        c = greedy.dec.conflicts.get(u)
        if c is not None and not final[u]:
            g.dec.conflicts[u] = c


def cost(g: Greedy, assign: dict[Use, bool]) -> int:
    return sum(weight(g, u) for u, ip in assign.items() if not ip)


def _search(g: Greedy, layer: list[int], uses: list[Use], max_iter: int,
            budget_s: float, greedy_cost: int | None = None) -> dict[Use, bool] | None:
    """The cheapest conflict-free assignment of ``uses``, or None (out of iterations or
    time, a conflict no decision of the layer can undo, or the greedy assignment proven
    optimal: it costs ``greedy_cost``, and no assignment can cost less).

    Z3 gets a variable only for a use that some conflict found so far blames: every
    other use is in place in the optimum of the constraints so far (its soft constraint
    is all that mentions it), so each model equals the one over all the layer's uses.

    Each conflict found needs one of its blamed uses out of place, so the constraints
    found so far bound every assignment's cost from below: by the optimum of Z3's model,
    and before Z3 is even loaded, by conflicts that blame no use in common (each costs at
    least its cheapest use). A bound that reaches the greedy cost proves the greedy
    assignment optimal: the search stops there (often at once, without Z3)."""
    must_copy = g.view.must_copy
    assign = {u: u not in must_copy for u in uses}
    x: dict = {}
    opt = ctx = None
    start = time.perf_counter()
    for _ in range(max_iter):
        found = replay(g, layer, assign).violations(layer)
        if not found:
            return assign
        if time.perf_counter() - start > budget_s:
            return None
        if opt is None:
            if greedy_cost is not None and cost(g, assign) + \
                    disjoint_bound(g, found, assign, must_copy) >= greedy_cost:
                return None  # greedy is optimal
            import z3

            ctx = z3.Context()  # private context: Z3 contexts are not thread-safe
            opt = z3.Optimize(ctx=ctx)
            opt.set("timeout", int(budget_s * 1000))
        added = False
        for _c, cause in found:
            lits = []
            for u in cause:
                if u in assign and u not in must_copy:
                    if u not in x:
                        x[u] = z3.Bool(f"ip_{u[0]}_{u[1]}", ctx)
                        opt.add_soft(x[u], weight(g, u))
                    lits.append(z3.Not(x[u]))
            if lits:
                opt.add(z3.Or(lits))
                added = True
        if not added or opt.check() != z3.sat:
            return None  # a conflict no decision of this layer can undo, or Z3 gave up
        m = opt.model()
        for u, xu in x.items():
            assign[u] = z3.is_true(m.eval(xu, model_completion=True))
        if greedy_cost is not None and cost(g, assign) >= greedy_cost:
            return None  # the relaxation's optimum is no cheaper than greedy: greedy is optimal
    return None


def disjoint_bound(g: Greedy, found: list, assign: dict[Use, bool],
                   must_copy) -> int:
    """A lower bound on the cost of any assignment that resolves the conflicts ``found``
    (as the search models them: one of each conflict's decidable blamed uses out of
    place): the cheapest use of each conflict of a family blaming pairwise disjoint sets
    of uses, smallest sets taken first."""
    causes = []
    for _c, cause in found:
        lits = {u for u in cause if u in assign and u not in must_copy}
        if lits:
            causes.append(lits)
    causes.sort(key=len)
    taken: set[Use] = set()
    bound = 0
    for lits in causes:
        if taken.isdisjoint(lits):
            taken |= lits
            bound += min(weight(g, u) for u in lits)
    return bound
