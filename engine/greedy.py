"""The decision procedure (DESIGN §2 step 2): mlir-opt's greedy order over rule-derived
conflicts, with alias and equivalence union-finds.

What a conflict is comes from the rules alone (rules/analysis/conflicts.dl): a RaW
triple (read r of value x, write w of value y, definition d) is a conflict once x and y
share an alias set and w is in place; a write is refused where its alias set holds a
read-only value (`not_writable`); a write racing in a parallel region (`parallel_write`)
is refused where its alias set is read. This module only

* orders the decisions as mlir-opt does: functions callee first, in each function the
  ops bottom-up (reverse of a post-order walk), each op's tensor operands in order;
* keeps the alias sets (union-find; each set indexes the triples, reads, writes and
  read-only members of its values, merged small into large) and the equivalence classes;
* puts an operand in place unless doing so would activate a triple or a read-only or
  parallel conflict, and unions its alias set with its aliasing results'.

Decisions so far are conflict-free, so deciding an operand only looks at what it
changes: the triples of every alias set it merges but the largest, and its own write's
triples. A complete assignment (``--strategy optimal``) is replayed the same way with
``replay``; ``violations`` lists what it breaks, each with the in-place operands whose
decisions make it (the alias path between the read and the write).
"""

from __future__ import annotations

from collections import defaultdict, deque

from bufferlog.core.records import field, record, value_class
from bufferlog.core.unionfind import UnionFind

Use = tuple[int, int]


@value_class
class Triple:
    """A rule-derived RaW triple (rules `raw`): read use, write use, definition, and the
    values read (x) and written (y)."""

    read: Use
    write: Use
    definition: int
    x: int
    y: int


#: the kinds of conflict (``Conflict.kind``), spelt here once: a read-after-write triple,
#: a write into a read-only buffer, a race in a parallel region, a user's ``must_copy``
RAW, NOT_WRITABLE, PARALLEL, FORCED = "raw", "not_writable", "parallel", "forced"
CONFLICT_KINDS = (RAW, NOT_WRITABLE, PARALLEL, FORCED)


@record
class Conflict:
    """Why a use is out of place: a RaW triple, a write into a read-only buffer, a race in
    a parallel region, or a user's ``must_copy``."""

    kind: str  # one of CONFLICT_KINDS
    use: Use
    read: Use | None = None
    write: Use | None = None
    definition: int | None = None  # value


@record
class Decisions:
    inplace: dict[Use, bool] = field(factory=dict)
    conflicts: dict[Use, Conflict] = field(factory=dict)
    order: list[Use] = field(factory=list)
    access: dict[tuple[int, int], str] = field(factory=dict)  # (func op, arg) -> kind
    equivalent_args: dict[int, list[int]] = field(factory=dict)  # return op -> idx


class Greedy:
    """Decision state over one module: alias sets, equivalence classes, decisions."""

    def __init__(self, view, heuristic: str = "bottom-up", copy_before_write: bool = False):
        self.view = view
        self.heuristic = heuristic  # mlir-opt's analysis-heuristic: the order of the ops
        self.copy_before_write = copy_before_write  # every write out of place, no analysis
        self.alias = UnionFind()
        self.equiv = UnionFind()
        self.inplace: dict[Use, bool] = {}
        self.dec = Decisions()
        # per alias-set root: triples of its members, number of read uses, in-place
        # writes, read-only members, in-place parallel writes
        self.trips: dict[int, list[Triple]] = defaultdict(list)
        self.nreads: dict[int, int] = defaultdict(int)
        self.nwrites: dict[int, int] = defaultdict(int)
        self.readonly: dict[int, list[int]] = defaultdict(list)
        self.pwrites: dict[int, list[Use]] = defaultdict(list)
        self.by_write: dict[Use, list[Triple]] = defaultdict(list)
        self.parallel: set[Use] = set()
        self.edges: list[tuple[int, int, object]] = []  # guard unions: (a, b, label)

    def clone(self) -> Greedy:
        """An independent copy of the decision state (the view is shared: read-only)."""
        h = Greedy.__new__(Greedy)
        h.view, h.heuristic, h.copy_before_write = self.view, self.heuristic, self.copy_before_write
        for uf in ("alias", "equiv"):
            src, dst = getattr(self, uf), UnionFind()
            dst.parent, dst.size = dict(src.parent), dict(src.size)
            setattr(h, uf, dst)
        h.inplace = dict(self.inplace)
        h.dec = Decisions(dict(self.dec.inplace), dict(self.dec.conflicts), list(self.dec.order))
        for name in ("trips", "readonly", "pwrites"):
            setattr(h, name, defaultdict(list, {k: list(v) for k, v in getattr(self, name).items()}))
        h.nreads, h.nwrites = defaultdict(int, self.nreads), defaultdict(int, self.nwrites)
        h.by_write, h.parallel, h.edges = self.by_write, self.parallel, list(self.edges)
        return h

    # ------------------------------------------------------------------ loading
    def load(self, funcs: list[int]) -> None:
        """Index what the view's rules run derived for ``funcs`` (their values are still
        in singleton sets): triples, reads, read-only values, parallel writes, guards."""
        view, rel = self.view, self.view.rel
        fs = set(funcs)
        for v in view.tensor:
            if view.value_func(v) in fs:
                self.nreads[self.alias.find(v)] += sum(
                    1 for u in view.uses.get(v, ()) if u in view.reads or u in view.read_via_alias)
                if v in view.not_writable:
                    self.readonly[self.alias.find(v)].append(v)
        for ro, ri, wo, wi, d, x, y in sorted(rel.raw):
            t = Triple((ro, ri), (wo, wi), d, x, y)
            self.by_write[t.write].append(t)
            self.trips[self.alias.find(x)].append(t)
            if self.alias.find(y) != self.alias.find(x):
                self.trips[self.alias.find(y)].append(t)
        for wo, wi, _d in rel.parallel_write:
            self.parallel.add((wo, wi))
        must: dict[int, list[Use]] = defaultdict(list)
        for u in view.must:
            if (f := view.enclosing_func(u[0])) in fs:
                must[f].append(u)
        for f in funcs:
            for u in sorted(must[f]):
                self.bufferize_inplace(u)
        # bufferlog's guards (docs/analysis.md): iteration arguments that may receive one
        # buffer, results of a call whose callee returns one buffer twice
        for a, b in sorted(rel.carried_alias):
            if view.value_func(a) in fs:
                self.edges.append((a, b, None))
                self.union(a, b)
        for o, a, b in sorted(rel.call_shared):
            if view.enclosing_func(o) in fs:
                self.edges.append((a, b, ("call", o)))
                self.union(a, b)

    # ------------------------------------------------------------------ alias sets
    def union(self, a: int, b: int) -> None:
        m = self.alias.union(a, b)
        if m is None:
            return
        ra, rb = m
        small, big = self.trips.pop(rb, []), self.trips[ra]
        if len(small) > len(big):
            small, big = big, small
        big.extend(small)
        self.trips[ra] = big
        for counts in (self.nreads, self.nwrites):
            counts[ra] += counts.pop(rb, 0)
        for lists in (self.readonly, self.pwrites):
            moved = lists.pop(rb, None)
            if moved:
                lists[ra].extend(moved)

    def bufferize_inplace(self, u: Use) -> None:
        view = self.view
        self.inplace[u] = True
        v = view.tuse[u]
        if u in view.writes:
            r = self.alias.find(v)
            self.nwrites[r] += 1
            if u in self.parallel:
                self.pwrites[r].append(u)
        for a, _k in view.aliases.get(u, ()):
            self.union(v, a)

    # ------------------------------------------------------------------ the check
    def _active(self, t: Triple, roots: set[int], u: Use | None) -> bool:
        return ((t.write == u or self.inplace.get(t.write, False))
                and self.alias.find(t.x) in roots and self.alias.find(t.y) in roots)

    def try_inplace(self, u: Use) -> Conflict | None:
        """The conflict that bufferizing u in place would create (None: none)."""
        view = self.view
        v = view.tuse[u]
        roots: list[int] = []
        for x in [v] + [a for a, _ in view.aliases.get(u, ())]:
            r = self.alias.find(x)
            if r not in roots:
                roots.append(r)
        is_w = u in view.writes
        if not is_w and len(roots) == 1:
            return None  # no new write and no new alias
        if is_w or any(self.nwrites[r] for r in roots):
            for r in roots:
                if self.readonly.get(r):
                    return Conflict(NOT_WRITABLE, u, definition=self.readonly[r][0])
        if view.has_parallel and any(self.nreads[r] for r in roots):
            pw = [w for r in roots for w in self.pwrites.get(r, ())]
            if is_w and u in self.parallel:
                pw.append(u)
            if pw:
                return Conflict(PARALLEL, u, write=pw[0])
        rs = set(roots)
        largest = max(roots, key=lambda r: len(self.trips.get(r, ())))
        for t in self.by_write.get(u, ()):
            if self._active(t, rs, u):
                return Conflict(RAW, u, read=t.read, write=t.write, definition=t.definition)
        for r in roots:
            if r == largest:
                continue
            for t in self.trips.get(r, ()):
                if self._active(t, rs, u):
                    return Conflict(RAW, u, read=t.read, write=t.write, definition=t.definition)
        return None

    # ------------------------------------------------------------------ driver
    def decide(self, f: int, fixed: dict[Use, bool] | None = None) -> None:
        """Decide every tensor operand of function op ``f`` (``fixed``: impose these
        decisions instead, unchecked; see ``replay``)."""
        view, dec = self.view, self.dec
        for o in self.func_ops(f):
            for i in view.op_tuses.get(o, ()):
                u = (o, i)
                if u in view.must:
                    continue
                dec.order.append(u)
                if fixed is not None:
                    if fixed.get(u, True):
                        self.bufferize_inplace(u)
                    else:
                        self.inplace[u] = False
                    continue
                if u in view.must_copy or (self.copy_before_write and u in view.writes):
                    self.inplace[u] = False
                    dec.conflicts[u] = Conflict(FORCED, u)
                    continue
                c = self.try_inplace(u)
                if c is None:
                    self.bufferize_inplace(u)
                else:
                    self.inplace[u] = False
                    dec.conflicts[u] = c
        self.equivalence_pass(f)

    def func_ops(self, f: int) -> list[int]:
        """Ops with tensor semantics in f, in the order of mlir-opt's analysis-heuristic:
        bottom-up (the reverse of a post-order walk: the default), top-down (a post-order
        walk), or bottom-up-from-terminators (first the reverse use-def chains of the
        region terminators' operands, then the rest)."""
        view = self.view
        ops = [o for o in range(f + 1, view.span[f] + 1)
               if view.op_tuses.get(o) or any(v in view.tensor for v in view.results.get(o, ()))]
        if self.heuristic == "top-down":
            return sorted(ops, key=lambda o: (view.span[o], -o))
        ops.sort(key=lambda o: (-view.span[o], o))
        if self.heuristic == "bottom-up":
            return ops
        traversed = self.terminator_chains(f)
        tensor_ops = set(ops)
        first = [o for o in traversed if o in tensor_ops]
        rest = [o for o in self.reverse_postorder_walk(f) if o in tensor_ops and o not in traversed]
        return first + rest

    def terminator_chains(self, f: int) -> dict[int, None]:
        """Ops met following the reverse use-def chains (through aliasing operands) from
        the tensor operands of each region terminator of f, terminators in post-order; a
        chain stops at an op outside the terminator's region."""
        view = self.view
        terms = sorted({o for o, _ in view.must
                        if f < o <= view.span[f] and o in view.terminators},
                       key=lambda o: (view.span[o], -o))
        seen: dict[int, None] = {}
        for t in terms:
            if t in seen:
                continue
            seen[t] = None
            region = view.block_region[view.block_of[t]]
            work = [view.tuse[(t, i)] for i in view.op_tuses.get(t, ())]
            while work:
                v = work.pop()
                if v not in view.result_of:
                    continue
                d = view.result_of[v][0]
                if d in seen:
                    continue
                seen[d] = None
                if not self.in_region(d, region):
                    continue
                work += [view.tuse[u] for u, _k in view.aliasing_operands(v)]
        return seen

    def in_region(self, o: int, region: int) -> bool:
        """Op o lies in region ``region`` at any depth."""
        view = self.view
        while o is not None and view.block_of.get(o, -1) >= 0:
            if view.block_region[view.block_of[o]] == region:
                return True
            o = view.parent_op.get(o)
        return False

    def reverse_postorder_walk(self, f: int) -> list[int]:
        """mlir's post-order walk with reverse iteration: the ops of a block last to first,
        each op's regions (last to first) before the op itself."""
        view = self.view
        out: list[int] = []
        stack: list[tuple[int, bool]] = [(f, False)]
        while stack:
            o, expanded = stack.pop()
            if expanded:
                out.append(o)
                continue
            stack.append((o, True))
            # children pushed so that the last op of the last block is visited first
            for c in view.children(o):
                stack.append((c, False))
        return [o for o in out if o != f]

    def kind(self, u: Use, k: str) -> str:
        """An aliasing kind resolved: a loop init is equivalent to its result iff every
        iteration argument is equivalent to the value flowing into it."""
        if k == "loop":
            pairs = self.view.loop_pairs.get(u)
            return "equivalent" if pairs and all(self.equiv.find(a) == self.equiv.find(y)
                                                 for a, y in pairs) else "unknown"
        return k

    def equivalence_pass(self, f: int) -> None:
        """mlir's equivalenceAnalysis: a result joins its aliasing operands' class when all
        of them alias it equivalently, are in place and are equivalent to each other."""
        view = self.view
        ops = sorted(range(f + 1, view.span[f] + 1), key=lambda o: (view.span[o], -o))
        for o in ops:
            for v in view.results.get(o, ()):
                if v not in view.tensor:
                    continue
                al = view.aliasing_operands(v)
                if not al:
                    continue
                first = view.tuse[al[0][0]]
                if all(self.kind(u, k) == "equivalent" and self.inplace.get(u)
                       and self.equiv.find(view.tuse[u]) == self.equiv.find(first)
                       for u, k in al):
                    self.equiv.union(v, first)

    # ------------------------------------------------------------------ complete assignments
    def violations(self, funcs: list[int]) -> list[tuple[Conflict, list[Use]]]:
        """What the current (replayed) state of ``funcs`` breaks: every active triple,
        read-only write and parallel race, each with the in-place uses that cause it."""
        view = self.view
        fs = set(funcs)
        out: list[tuple[Conflict, list[Use]]] = []
        graph: dict[int, list] = {}  # built on the first violation, shared by all

        def cause(src: int, dst: int, w: Use) -> list[Use]:
            if not graph:
                graph.update(self.alias_graph())
            return self.cause(src, dst, w, graph)

        for w, ts in self.by_write.items():
            if not self.inplace.get(w) or view.enclosing_func(w[0]) not in fs:
                continue
            for t in ts:
                if self.alias.find(t.x) == self.alias.find(t.y):
                    c = Conflict(RAW, w, read=t.read, write=w, definition=t.definition)
                    out.append((c, cause(t.x, t.y, w)))
                    break
        for u, ip in sorted(self.inplace.items()):
            if not ip or u not in view.writes or view.enclosing_func(u[0]) not in fs:
                continue
            r = self.alias.find(view.tuse[u])
            if self.readonly.get(r):
                m = self.readonly[r][0]
                out.append((Conflict(NOT_WRITABLE, u, definition=m), cause(m, view.tuse[u], u)))
            if u in self.parallel and self.nreads[r]:
                out.append((Conflict(PARALLEL, u, write=u), cause(view.tuse[u], view.tuse[u], u)))
        return out

    def alias_graph(self) -> dict[int, list]:
        """Alias sets as a graph: value -> [(value, in-place use joining them, or a guard
        label)]."""
        view = self.view
        g: dict[int, list] = defaultdict(list)
        for u, ip in self.inplace.items():
            if ip:
                for a, _ in view.aliases.get(u, ()):
                    g[view.tuse[u]].append((a, u))
                    g[a].append((view.tuse[u], u))
        for a, b, lab in self.edges:
            g[a].append((b, lab))
            g[b].append((a, lab))
        return g

    def cause(self, src: int, dst: int, w: Use, g: dict[int, list]) -> list[Use]:
        """The in-place uses on the shortest alias path from value src to value dst in
        the alias graph ``g``, and the write w: all in place again rebuild the same
        conflict."""
        prev: dict[int, tuple | None] = {src: None}
        work = deque([src])
        while work:
            v = work.popleft()
            if v == dst:
                break
            for b, x in g.get(v, ()):
                if b not in prev:
                    prev[b] = (v, x)
                    work.append(b)
        out = [w] if w not in self.view.must else []
        v = dst
        while prev.get(v) is not None:
            v, x = prev[v]
            if isinstance(x, tuple) and isinstance(x[0], int) and x not in self.view.must:
                out.append(x)
        return out
