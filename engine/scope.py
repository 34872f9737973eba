"""A module's input facts by function, for runs of rules/analysis.dl scoped to a few
functions (engine/oneshot.py: the runs for layers after the first).

Every row of an input relation whose first column is an op, a value, a block or a region
(rules/schema.dl names it `o`, `v`, `b` or `r`) belongs to the function whose body holds
it; other rows, and the rows of ops outside any function body (the module, the func ops
themselves with their attributes), belong to the module and are in every scope. A
function's facts are then exactly its body: values are local to the function that
defines them and a body refers to other functions only by symbol (`call`), which the
rules resolve through the callees' summaries.
"""

from __future__ import annotations

from collections import defaultdict

from bufferlog.frontend.schema import load_schema

#: the first column's name (rules/schema.dl) -> what it numbers
KEYS = {"o": "op", "v": "value", "b": "block", "r": "region"}


class FactScope:
    """The rows of ``rows`` grouped by the function op holding them (None: the module)."""

    def __init__(self, rows: dict):
        funcs = {f for f, _, _, decl in rows["func"] if not decl}  # declarations: the module's
        region_parent = {r: p for r, p, _ in rows["region"]}
        block_region = {b: r for b, r, _ in rows["block"]}
        parent = {o: region_parent[block_region[b]] for o, _, b, _ in rows["op"] if b >= 0}
        op_func: dict[int, int | None] = {}

        def func_of(o: int) -> int | None:
            """The function whose body holds op o (None: o is not in a function body)."""
            path = []
            while o not in op_func:
                p = parent.get(o)
                if p is None or p in funcs:
                    op_func[o] = p
                    break
                path.append(o)
                o = p
            for q in path:
                op_func[q] = op_func[o]
            return op_func[o]

        def region_func(r: int) -> int | None:
            p = region_parent[r]
            return p if p in funcs else func_of(p)

        of = {"op": {o: func_of(o) for o in parent}, "region": {r: region_func(r) for r in region_parent}}
        of["block"] = {b: of["region"][r] for b, r in block_region.items()}
        of["value"] = {v: of["op"].get(o) for v, o, _ in rows["result"]}
        of["value"].update({v: of["block"][b] for v, b, _ in rows["block_arg"]})
        self.func_of = of
        schema = load_schema()
        self.module: dict[str, list] = {}
        self.by_func: dict[str, dict[int | None, list]] = {}
        for rel, rs in rows.items():
            cols = schema[rel].columns if rel in schema else ()
            kind = KEYS.get(cols[0][0]) if cols else None
            if kind is None:
                self.module[rel] = rs
                continue
            groups: dict[int | None, list] = defaultdict(list)
            owner = of[kind].get
            for row in rs:
                groups[owner(row[0])].append(row)
            self.by_func[rel] = groups

    def facts(self, funcs) -> dict[str, list]:
        """The rows of the module and of the bodies of ``funcs``."""
        out = dict(self.module)
        for rel, groups in self.by_func.items():
            rows = list(groups.get(None, ()))
            for f in funcs:
                rows += groups.get(f, ())
            out[rel] = rows
        return out
