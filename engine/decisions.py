"""Decisions as facts (rules/schema.dl, "decisions so far"): for each run of
rules/analysis.dl, the functions decided so far with their in-place decisions, alias sets
and equivalence classes (the union-finds' representatives), and the functions to check."""

from __future__ import annotations

DECISION_RELATIONS = ("decided_func", "check_func", "inplace", "out_of_place", "alias_root",
                      "equiv_root")


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
