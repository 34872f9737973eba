"""``--strategy optimal``: per layer of the call graph, the conflict-free in-place
assignment with the fewest copied bytes.

Z3 Optimize holds one Boolean per decidable tensor use of the layer's functions (in
place or not) and a soft constraint per use weighted by what putting it out of place
costs: the bytes of its tensor when the use reads it (a copy moves them; dynamic shapes
weigh ``DYNAMIC_BYTES``), else 1 (a fresh allocation, no copy). A hard bound keeps the
total at most the greedy order's (mlir-opt's) for the same layer, so the result is never
worse. Conflicts are the rules' (the same RaW triples, read-only and parallel checks the
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
    import z3

    start_order = len(g.dec.order)
    greedy = replay(g, layer, None)
    uses = greedy.dec.order[start_order:]
    base = {u: greedy.inplace.get(u, True) for u in uses}
    chosen = None
    if uses:
        base_cost = sum(weight(g, u) for u in uses if not base[u])
        ctx = z3.Context()  # private context: Z3 contexts are not thread-safe
        x = {u: z3.Bool(f"ip_{u[0]}_{u[1]}", ctx) for u in uses}
        opt = z3.Optimize(ctx=ctx)
        opt.set("timeout", int(budget_s * 1000))
        opt.add(z3.Sum([z3.If(x[u], 0, weight(g, u)) for u in uses]) <= base_cost)
        for u in uses:
            if u in g.view.must_copy:
                opt.add(z3.Not(x[u]))
            opt.add_soft(x[u], weight(g, u))
        start = time.perf_counter()
        for _ in range(max_iter):
            if time.perf_counter() - start > budget_s or opt.check() != z3.sat:
                break
            m = opt.model()
            assign = {u: z3.is_true(m.eval(x[u], model_completion=True)) for u in uses}
            found = replay(g, layer, assign).violations(layer)
            if not found:
                chosen = assign
                break
            added = False
            for _c, cause in found:
                lits = [z3.Not(x[u]) for u in cause if u in x]
                if lits:
                    opt.add(z3.Or(lits))
                    added = True
            if not added:
                break  # a conflict no decision of this layer can undo
    final = chosen if chosen is not None else base
    for f in layer:
        g.decide(f, fixed=final)
    for u in uses:
        c = greedy.dec.conflicts.get(u)
        if c is not None and not final[u]:
            g.dec.conflicts[u] = c
