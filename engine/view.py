"""A read-only view of one module's facts and of the relations rules/analysis.dl derived.

Indexes only: maps from ops, values and uses to what the facts and the rules say about
them, so that the decision procedure (engine/greedy.py), the backend and the CLI can
look things up in O(1). No analysis logic lives here: every semantic relation (reads,
writes, aliasing, read-only buffers, conflicts) is taken from the rules' output.
"""

from __future__ import annotations

from collections import defaultdict

from .outputs import AnalysisOutputs

DYNAMIC_BYTES = 4096  # weight of a copy of a tensor whose size is not static
#: a later layer's relations (AnalysisOutputs.LAYER), which a run scoped to some functions
#: derives for those only: what names a tuple's function (its first column: an op, a
#: value, a function symbol), or None for the run's own triples and parallel writes (its
#: layer's, which the decision procedure loads): rules/interface.dl's layer_output
SCOPED_KEYS = AnalysisOutputs.SCOPE


class ProgramView:
    """Structure of the module (facts) and the per-use semantics of one rules run."""

    def __init__(self, rows: dict, rel: AnalysisOutputs):
        self.rows = rows
        self.name: dict[int, str] = {}
        self.block_of: dict[int, int] = {}
        last: dict[int, tuple[int, int]] = {}  # block -> (position, op) of its last op
        for o, n, b, k in rows["op"]:
            self.name[o], self.block_of[o] = n, b
            if k >= last.get(b, (-1, 0))[0]:
                last[b] = (k, o)
        self.terminators = {o for b, (_, o) in last.items() if b >= 0}
        self.span = {o: last for o, last in rows["op_span"]}
        self.region_parent = {r: p for r, p, _ in rows["region"]}
        self.block_region = {b: r for b, r, _ in rows["block"]}
        self.parent_op = {o: self.region_parent[self.block_region[b]]
                          for o, b in self.block_of.items() if b >= 0}
        self.result_of = {v: (o, i) for v, o, i in rows["result"]}
        self.bbarg_of = {v: (b, i) for v, b, i in rows["block_arg"]}
        self.results: dict[int, list[int]] = defaultdict(list)
        for v, o, _i in sorted(rows["result"], key=lambda t: (t[1], t[2])):
            self.results[o].append(v)
        self.n_operands: dict[int, int] = defaultdict(int)
        for o, i, _ in rows["operand"]:
            self.n_operands[o] = max(self.n_operands[o], i + 1)
        self.tensor = {t[0] for t in rows["tensor"]}
        self.funcs = {sym: (f, decl) for f, sym, _, decl in rows["func"]}
        self.func_sym = {f: sym for sym, (f, _) in self.funcs.items()}
        self.func_ops = set(self.func_sym)
        self.calls = {o: callee for o, callee in rows["call"]}
        self.bytes = {v: n for v, n in rows["type_bytes"]}
        self.slices: dict[int, dict] = defaultdict(dict)
        for o, kind, d, n in rows["slice_static"]:
            self.slices[o][(kind, d)] = ("c", n)
        for o, kind, d, v in rows["slice_dynamic"]:
            self.slices[o][(kind, d)] = ("v", v)
        self.loc = {o: (f, ln, c) for o, f, ln, c in rows["op_loc"]}
        self._children: dict[int, list[int]] | None = None
        self._func_of: dict[int, int | None] = {}  # enclosing_func's answers
        self.refresh(rel)

    def refresh(self, rel: AnalysisOutputs) -> None:
        """Take the per-use semantics of a (new) rules run: call operands get theirs once
        their callee is decided."""
        self.rel = rel
        self.tuse: dict[tuple[int, int], int] = {(t.o, t.i): t.v for t in rel.tuse}
        self.uses: dict[int, list[tuple[int, int]]] = defaultdict(list)
        self.op_tuses: dict[int, list[int]] = defaultdict(list)
        for (o, i), v in sorted(self.tuse.items()):
            self.uses[v].append((o, i))
            self.op_tuses[o].append(i)
        self.unknown = {t.o for t in rel.unknown_op}
        self.reads = {(t.o, t.i) for t in rel.use_read}
        self.read_via_alias = {(t.o, t.i) for t in rel.use_read_via_alias}
        self.writes = {(t.o, t.i) for t in rel.is_write}
        self.aliases: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
        self.rev_alias: dict[int, list[tuple[tuple[int, int], str]]] = defaultdict(list)
        for o, i, v, k in sorted(rel.use_alias):
            self.aliases[(o, i)].append((v, k))
            self.rev_alias[v].append(((o, i), k))
        self.loop_arg = {(t.o, t.i): t.arg for t in rel.loop_init}
        self.loop_pairs: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
        for o, i, arg, v in sorted(rel.loop_pair):
            self.loop_pairs[(o, i)].append((arg, v))
        self.must = {(t.o, t.i) for t in rel.must_inplace}
        self.init_read = {(t.o, t.i) for t in rel.init_contents_read}
        self.must_copy = {(t.o, t.i) for t in rel.must_copy}
        self.value_read = {t.v for t in rel.value_read}
        self.not_writable = {t.v for t in rel.not_writable}
        self.func_args: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for f, i, v in sorted(rel.func_arg):
            self.func_args[f].append((i, v))
        self.func_returns: dict[int, list[int]] = defaultdict(list)
        for f, o in sorted(rel.func_return):
            self.func_returns[f].append(o)
        self.has_parallel = any(t.r != -1 for t in rel.op_par_region)
        self.subset_insert = {t.o: (t.src, t.dest) for t in rel.subset_insert}
        self.subset_extract = {t.o: t.src for t in rel.subset_extract}
        self.whole_insert = {t.o for t in rel.subset_insert_whole}
        self.subset_insert.update({t.o: (t.src, t.dest) for t in rel.subset_insert_whole})

    def update_calls(self, rel: AnalysisOutputs, scope: set[int] | None = None,
                     owners: dict[str, dict] | None = None) -> None:
        """Take a later layer's run (``AnalysisOutputs.LAYER``): its triples and guards,
        and the semantics its callees' summaries give to call operands. A run scoped to the
        function ops ``scope`` (engine/scope.py) derived nothing of the other functions:
        their tuples stay as earlier runs derived them; ``owners`` (``FactScope.func_of``)
        names the function holding each op and value."""
        merged = dict(self.rel.relations)
        for name, rows in rel.relations.items():
            if scope is not None and name not in SCOPED_KEYS:
                from bufferlog.core import InternalError

                raise InternalError(f"relation '{name}' of a scoped run has no owner (SCOPED_KEYS)")
            key = None if scope is None else SCOPED_KEYS[name]
            if key is None:
                merged[name] = rows
            else:
                func = ((lambda sym: self.funcs[sym][0] if sym in self.funcs else None)
                        if key == "sym" else owners[key].get)
                merged[name] = {t for t in self.rel.relations[name] if func(t[0]) not in scope} | set(rows)
        self.rel = AnalysisOutputs(merged)
        for o, i, v, k in sorted(rel.call_alias):
            if (v, k) not in self.aliases[(o, i)]:
                self.aliases[(o, i)].append((v, k))
                self.rev_alias[v].append(((o, i), k))
        self.writes |= {(t.o, t.i) for t in rel.call_write}
        merged_out = self.rel
        self.not_writable = {t.v for t in merged_out.not_writable}
        # reads through calls of this layer's callees (conservative in earlier runs)
        self.reads = {(t.o, t.i) for t in merged_out.use_read}
        self.read_via_alias = {(t.o, t.i) for t in merged_out.use_read_via_alias}
        self.value_read = {t.v for t in merged_out.value_read}
        self.init_read = {(t.o, t.i) for t in merged_out.init_contents_read}

    # ------------------------------------------------------------------ structure
    def enclosing_func(self, o: int) -> int | None:
        """The function op holding op o (o itself for a function op; None outside any)."""
        memo = self._func_of
        if o in memo:
            return memo[o]
        path = []
        while o is not None and o not in self.func_ops and o not in memo:
            path.append(o)
            o = self.parent_op.get(o)
        f = memo.get(o, o)
        for p in path:
            memo[p] = f
        return f

    def children(self, o: int) -> list[int]:
        """The ops directly in op o's regions, in region, block and op order."""
        if self._children is None:
            key: dict[int, tuple] = {}
            region_index = {r: i for r, _, i in self.rows["region"]}
            block_index = {b: i for b, _, i in self.rows["block"]}
            kids: dict[int, list[int]] = defaultdict(list)
            for c, _n, b, k in self.rows["op"]:
                if b >= 0:
                    r = self.block_region[b]
                    kids[self.region_parent[r]].append(c)
                    key[c] = (region_index[r], block_index[b], k)
            for lst in kids.values():
                lst.sort(key=key.__getitem__)
            self._children = kids
        return self._children.get(o, [])

    def owner(self, v: int) -> int:
        """The op defining value v (a block argument: the op owning its block)."""
        if v in self.result_of:
            return self.result_of[v][0]
        b, _ = self.bbarg_of[v]
        return self.region_parent[self.block_region[b]]

    def value_func(self, v: int) -> int | None:
        return self.enclosing_func(self.owner(v))

    def aliasing_operands(self, v: int) -> list[tuple[tuple[int, int], str]]:
        return self.rev_alias.get(v, [])

    def loc_text(self, o: int) -> str:
        f, ln, c = self.loc.get(o, ("-", 0, 0))
        return f"{f}:{ln}:{c}"

    def copy_bytes(self, u: tuple[int, int]) -> int:
        return self.bytes.get(self.tuse[u], DYNAMIC_BYTES)
