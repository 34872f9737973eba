"""Decisions as facts (rules/schema.dl, "decisions so far"): for each run of
rules/analysis.dl, the functions decided so far with their in-place decisions, alias sets
and equivalence classes (the union-finds' representatives), and the functions to check.

A run scoped to a few functions (engine/oneshot.py, engine/scope.py) holds no decided
body: it gets, of each decided callee, only what the callee's summary reads
(rules/analysis/calls.dl): its tensor arguments, its returned values, a value written in
place in each written alias set of an argument (`decided_arg`, `decided_return`,
`decided_write`), and their alias sets and equivalence classes."""

from __future__ import annotations

DECISION_RELATIONS = ("decided_func", "check_func", "inplace", "out_of_place", "alias_root",
                      "equiv_root")
CALLEE_RELATIONS = ("decided_arg", "decided_return", "decided_write")


def decision_facts(g, check: list[int], decided: list[int]) -> dict[str, list[tuple]]:
    rows: dict[str, list[tuple]] = {r: [] for r in DECISION_RELATIONS}
    rows["check_func"] = [(f,) for f in check]
    rows["decided_func"] = [(f,) for f in decided]
    if g is None or not decided:
        return rows
    view, fs = g.view, set(decided)
    for u in sorted(view.tuse):
        if u[0] not in view.func_ops and view.enclosing_func(u[0]) in fs:
            rows["inplace" if g.inplace.get(u, False) else "out_of_place"].append(u)
    for v in sorted(view.tensor):
        if view.value_func(v) in fs:
            rows["alias_root"].append((v, g.alias.find(v)))
            rows["equiv_root"].append((v, g.equiv.find(v)))
    return rows


def callee_rows(g, f: int) -> dict[str, list[tuple]]:
    """What the summary of decided function op ``f`` reads of its body, as the rules
    derived it: its tensor arguments (`func_arg`), the operands of its returns
    (`func_return`, `tuse`), and its in-place uses that write (`inplace`, `is_write`):
    of these, one for each alias set of an argument that they write (the summary asks
    whether the set of an argument is written, `written_set`; one write tells)."""
    view = g.view
    rows: dict[str, list[tuple]] = {r: [] for r in CALLEE_RELATIONS}
    rows["decided_arg"] = [(f, i, a) for i, a in view.func_args[f] if a in view.tensor]
    rows["decided_return"] = [(f, r, j, view.tuse[(r, j)]) for r in view.func_returns[f]
                              for j in view.op_tuses.get(r, ())]
    unwritten = {g.alias.find(a) for _, _, a in rows["decided_arg"]}
    for o in range(f + 1, view.span[f] + 1):
        if not unwritten:
            break
        for i in view.op_tuses.get(o, ()):
            if g.inplace.get((o, i), False) and (o, i) in view.writes:
                v = view.tuse[(o, i)]
                if g.alias.find(v) in unwritten:
                    unwritten.discard(g.alias.find(v))
                    rows["decided_write"].append((o, i, v))
    return rows


def callee_facts(g, check: list[int], decided: list[int], callees: dict[int, dict]
                 ) -> dict[str, list[tuple]]:
    """Decision facts for a run scoped to ``check``: the functions, and of each decided
    callee (``callees``: function op -> its ``callee_rows``) what its summary reads, with
    the alias sets and equivalence classes of those values."""
    rows: dict[str, list[tuple]] = {r: [] for r in DECISION_RELATIONS + CALLEE_RELATIONS}
    rows["check_func"] = [(f,) for f in check]
    rows["decided_func"] = [(f,) for f in decided]
    values: set[int] = set()
    for f in sorted(callees):
        for rel, rs in callees[f].items():
            rows[rel] += rs
            values.update(t[-1] for t in rs)
    for v in sorted(values):
        rows["alias_root"].append((v, g.alias.find(v)))
        rows["equiv_root"].append((v, g.equiv.find(v)))
    return rows
