"""Frees before each terminator, from ``dealloc_edge`` / ``ownership`` / ``owning_root``.

A free's condition is a conjunction of i1 literals: the freed value's ownership (a
constant, or its indicator) and, when only some edges of a branch free it, the edge's
condition (``edge_cond``). Z3 decides what the rules leave open: a condition that is valid
gives a plain ``memref.dealloc``, an unsatisfiable one nothing, anything else an
``scf.if``-guarded free. Two values freed by one terminator must be distinct buffers:
disjoint allocation sites (``owning_root``, from the rules) or conditions Z3 proves
mutually exclusive; a group without such a proof is freed by one
``bufferization.dealloc`` (runtime alias check). Every guarded free and runtime check is
recorded with its reason (``dealloc --stats``).
"""

from __future__ import annotations

from collections import defaultdict

from bufferlog.frontend import types as T
from bufferlog.frontend.ir import Block, Op, Region, Value
from bufferlog.frontend.types import IntegerType

from bufferlog.core import UserError
from bufferlog.core.records import field, record

from .ops import arith, bufferization, memref, scf

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run

if TYPE_CHECKING:
    import z3

I1 = IntegerType(1)

Literal = tuple[Value, bool]  # (i1 value, negated)


@record
class Stats:
    static: int = 0
    conditional: int = 0
    runtime: int = 0
    clones: int = 0
    indicators: int = 0
    folded: int = 0
    early: int = 0  # frees moved up from the block end to right after the last use
    reused: int = 0  # allocations removed: they take a dead buffer (backend/plan_reuse.py)
    reasons: list[str] = field(factory=list)  # one line per guarded free or runtime check
    notes: list = field(factory=list)  # backend.plan_explain.Note: explain --alloc

    def summary(self) -> str:
        return (f"deallocs: static={self.static} conditional={self.conditional} "
                f"runtime={self.runtime} clones={self.clones} indicators={self.indicators} "
                f"folded={self.folded} early={self.early}")


_z3_local = None  #: a threading.local holding each thread's Z3 context (made with one)


class Conditions:
    """Literals as Z3 booleans: i1 constants fold, every other i1 value is a free variable.
    Z3 is imported and its context made only when a condition does not fold by constants."""

    def __init__(self, constants: dict[Value, bool]):
        self.constants = constants
        self.vars: dict[Value, z3.BoolRef] = {}
        self._solver: z3.Solver | None = None

    @property
    def ctx(self) -> z3.Context:
        return self.solver.ctx

    @property
    def solver(self) -> z3.Solver:
        if self._solver is None:
            global _z3_local
            import threading

            import z3

            if _z3_local is None:
                _z3_local = threading.local()
            # one context per thread (Z3 contexts are not thread-safe), kept for the next
            # run: making one costs ~8 ms, and a run only asks whether formulas are
            # unsatisfiable, which nothing left in the context changes
            ctx = getattr(_z3_local, "ctx", None)
            if ctx is None:
                ctx = _z3_local.ctx = z3.Context()
            self._solver = z3.Solver(ctx=ctx)
        return self._solver

    def literal(self, lit: Literal) -> z3.BoolRef:
        import z3

        v, neg = lit
        if v in self.constants:
            e = z3.BoolVal(self.constants[v], self.ctx)
        else:
            if v not in self.vars:
                self.vars[v] = z3.Bool(f"b{len(self.vars)}", self.ctx)
            e = self.vars[v]
        return z3.Not(e) if neg else e

    def conj(self, lits: list[Literal]) -> z3.BoolRef:
        import z3

        return z3.And([self.literal(x) for x in lits] or [z3.BoolVal(True, self.ctx)])

    def _unsat(self, e: z3.BoolRef) -> bool:
        import z3

        self.solver.push()
        self.solver.add(e)
        r = self.solver.check() == z3.unsat
        self.solver.pop()
        return r

    def fold(self, lits: list[Literal]) -> bool | None:
        """True if the conjunction always holds, False if never, None if it depends."""
        if all(v in self.constants for v, _ in lits):
            return all(self.constants[v] != neg for v, neg in lits)
        import z3

        e = self.conj(lits)
        if self._unsat(e):
            return False
        if self._unsat(z3.Not(e)):
            return True
        return None

    def exclusive(self, a: list[Literal], b: list[Literal]) -> bool:
        import z3

        return self._unsat(z3.And(self.conj(a), self.conj(b)))


@record
class Item:
    vid: int
    value: Value
    lits: list[Literal]  # the free's condition (empty: always)
    why: str  # why it is guarded ("" when it is not)


class Frees:
    """Emit the frees of every terminator (see the module doc)."""

    def __init__(self, d) -> None:
        self.d = d  # the Dealloc driver: facts, relations, values, constants, emit mode
        self.cond = Conditions(d.constants)
        self.stats: Stats = d.stats
        self._next: dict[Block, dict[Op, Op]] = {}

    def run(self) -> None:
        """Frees before each terminator (``free_on_edge``), then at the start of blocks
        every incoming edge would free on (``sink_free``)."""
        d = self.d
        per_t: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
        for t, i, v in sorted(d.rel.free_on_edge):
            per_t[t][v].add(i)
        per_s: dict[int, list[int]] = defaultdict(list)
        for s, v in sorted(d.rel.sink_free):
            per_s[s].append(v)
        roots: dict[int, set[int]] = defaultdict(set)
        for v, r in sorted(d.rel.owning_root):
            roots[v].add(r)
        self.retain: dict[tuple[int, int], set[int]] = defaultdict(set)  # (t or -s, v) -> us
        for t, v, u in sorted(d.rel.free_retain):
            self.retain[(t, v)].add(u)
        self.checked: set[tuple[int, int]] = set()  # (t, u): freed unless a handed-over value is its buffer
        for t, u, v in sorted(d.rel.check_free):
            self.retain[(t, u)].add(v)
            self.checked.add((t, u))
        #: (point, kept value) -> the i1 results saying the kept value takes a freed buffer's ownership
        self.kept_results: dict[tuple[int, Value], list[Value]] = defaultdict(list)
        for s, v, u in sorted(d.rel.sink_retain):
            self.retain[(-1 - s, v)].add(u)
        self.returns = {t for (t,) in d.rel.retain_returned}
        self.distinct = {(t, min(v, f), max(v, f)) for t, v, f in d.rel.fresh_distinct}
        self.alt: dict[tuple[int, int], list[int]] = defaultdict(list)  # (t, u) -> ds
        for t, u, dv in sorted(d.rel.alt_free):
            self.alt[(t, u)].append(dv)
        self.unchosen: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)  # (t, p) -> (c, w)s
        for t, p, c, w in sorted(d.rel.choice_free):
            self.unchosen[(t, p)].append((c, w))
        after: dict[tuple[int, int], Op] = {}  # (t, v) -> the op to free v before
        if d.free_at_last_use:
            for t, v, o in sorted(d.rel.free_after):
                last = d.f.ops[o]
                if last.parent is not None:  # (not a removed dead-buffer op)
                    after[(t, v)] = self._next_op(last)
            for t, v in sorted(d.rel.free_at_start):
                after[(t, v)] = d.f.values[v].block.ops[0]
        for t in sorted(per_t):
            top = d.f.ops[t]
            items = [it for vid in sorted(per_t[t])
                     if (it := self._item(t, top, vid, per_t[t][vid])) is not None]
            self._emit_all(top, items, roots, {it.vid: after[(t, it.vid)] for it in items
                                               if (t, it.vid) in after}, t)
        blocks = {b: k for k, b in d.f.block_id.items()}
        for s in sorted(per_s):
            anchor = blocks[s].ops[0]
            items = [it for vid in sorted(per_s[s])
                     if (it := self._item(-1, anchor, vid, set())) is not None]
            self._emit_all(anchor, items, roots, None, -1 - s)

    def _emit_all(self, anchor: Op, items: list[Item], roots: dict[int, set[int]],
                  early: dict[int, Op] | None, point: int) -> None:
        """Free ``items`` before ``anchor`` (terminator ``point``, or ``-1 - s`` for the
        start of block ``s``); a value alone in its group (no runtime alias check) that
        ``early`` maps to an op (right after its last use: ``free_after``,
        ``free_at_start``) is freed before that op instead."""
        d = self.d
        for grp in self._groups(items, roots, point):
            kept = sorted({u for it in grp for u in self.retain.get((point, it.vid), ())})
            if kept:
                names = ", ".join(d.name(it.value) for it in grp)
                vals = [d.kept_value(point, u) for u in kept]
                if point in self.returns:  # what leaves: a kept value, or its clone
                    vals = [x for x in anchor.operands
                            if isinstance(x.type, (T.MemRefType, T.UnrankedMemRefType))]
                keep = ", ".join(d.name(x) for x in vals)
                if any((point, it.vid) in self.checked for it in grp):
                    d.cause = (f"runtime check freeing {names} unless it is the buffer of {keep}, "
                               "handed over here: pointer comparisons instead of a clone "
                               "(check_transfer)")
                else:
                    d.cause = (f"runtime alias check freeing {names} unless it is the buffer of "
                               f"{keep}, which lives on: one call may have returned one buffer "
                               "twice (free_retain)")
                self.stats.reasons.append(f"{anchor.loc}: {d.cause}")
                for x, r in zip(vals, self._emit_runtime(anchor, grp, vals), strict=True):
                    self.kept_results[(point, x)] += r
            elif len(grp) == 1:
                it = grp[0]
                at = anchor
                if early and it.vid in early:
                    at = early[it.vid]
                    self.stats.early += 1
                if it.why:
                    self.stats.reasons.append(f"{at.loc}: guarded free of {d.name(it.value)}: {it.why}")
                d.cause = (f"free of {d.describe(it.value)}: " + (it.why or "owned here, not live "
                           "past this point, not returned nor forwarded"))
                self.emit_one(at, it.value, it.lits)
            else:
                names = ", ".join(d.name(it.value) for it in grp)
                d.cause = (f"runtime alias check freeing {names}: they may be one "
                           "buffer (allocation sites not provably disjoint) and may be owned at once")
                self.stats.reasons.append(f"{anchor.loc}: {d.cause}")
                self._emit_runtime(anchor, grp)

    def _next_op(self, op: Op) -> Op:
        """The op after ``op`` in its block (indexed once per block: the ops inserted
        meanwhile are queued, or i1 constants put first, so the successor stays)."""
        blk = op.parent
        if blk not in self._next:
            self._next[blk] = dict(zip(blk.ops, blk.ops[1:], strict=False))
        return self._next[blk][op]

    def _item(self, t: int, top: Op, vid: int, edges: set[int]) -> Item | None:
        d = self.d
        state = d.state(vid)
        if state == "false":
            self.stats.folded += 1
            return None
        lits: list[Literal] = []
        why = []
        if state == "indicator":
            lits.append((d.ind[vid], False))
            why.append("its ownership is known only at run time (it receives an owned "
                       "buffer on one path and a borrowed one on another)")
        for dv in sorted(self.alt.get((t, vid), ())):
            lits.append((d.indicator(dv, top), False))
            why.append(f"{d.name(d.val[dv])}, handed over here, is its buffer unless "
                       f"{d.name(d.val[dv])} owns another one (known at run time)")
        for c, w in sorted(self.unchosen.get((t, vid), ())):
            lits.append((d.val[c], w == 1))
            why.append(f"a choice handed over here is its buffer when {d.name(d.val[c])} is "
                       f"{'true' if w else 'false'}")
        n_edges = max(1, len(top.successors))
        if edges and len(edges) < n_edges:
            conds = [(c, w) for (tt, i, c, w) in d.edge_cond_of(t) if i in edges]
            if len(edges) != 1 or len(conds) != 1:
                raise UserError(f"dealloc: '{top.name}' frees a buffer on {len(edges)} of its "
                                f"{n_edges} edges, which needs a disjunction of edge conditions "
                                "(not supported)", top.loc)
            c, w = conds[0]
            lits.append((d.val[c], w == 0))
            why.append("it dies on one edge of the branch only")
        folded = self.cond.fold(lits)
        if folded is False:
            self.stats.folded += 1
            return None
        if folded is True:
            return Item(vid, d.val[vid], [], "")
        return Item(vid, d.val[vid], lits, " and ".join(why))

    def _groups(self, items: list[Item], roots: dict[int, set[int]], point: int) -> list[list[Item]]:
        """Items that may be one buffer, owned at once, form a group (union-find over
        shared allocation sites, then the rules' ``fresh_distinct`` pairs and Z3's
        exclusivity proof split what they can)."""
        parent = list(range(len(items)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        first: dict[int, int] = {}
        for k, it in enumerate(items):
            for r in roots.get(it.vid, ()):
                if r in first:
                    parent[find(k)] = find(first[r])
                else:
                    first[r] = k
        groups: dict[int, list[int]] = defaultdict(list)
        for k in range(len(items)):
            groups[find(k)].append(k)
        out: list[list[Item]] = []
        for ks in groups.values():
            out.extend(self._split(ks, items, roots, point))
        return out

    def _split(self, ks: list[int], items: list[Item], roots, point: int) -> list[list[Item]]:
        if len(ks) == 1:
            return [[items[ks[0]]]]
        parent = {k: k for k in ks}

        def find(x: int) -> int:
            while parent[x] != x:
                x = parent[x]
            return x

        for a_i, a in enumerate(ks):
            for b in ks[a_i + 1:]:
                ia, ib = items[a], items[b]
                if roots[ia.vid].isdisjoint(roots[ib.vid]):
                    continue
                if (point, min(ia.vid, ib.vid), max(ia.vid, ib.vid)) in self.distinct:
                    continue
                if self.cond.exclusive(ia.lits, ib.lits):
                    continue
                parent[find(a)] = find(b)
        groups: dict[int, list[Item]] = defaultdict(list)
        for k in ks:
            groups[find(k)].append(items[k])
        return list(groups.values())

    # ------------------------------------------------------------------ emission
    def materialize(self, top: Op, lits: list[Literal]) -> Value:
        """An i1 value computing the conjunction of ``lits`` before ``top``."""
        d = self.d
        acc = None
        for v, neg in lits:
            if neg:
                x = arith.xori(v, d.const(top, True))
                d.insert_before(top, x)
                v = x.result
            if acc is None:
                acc = v
            else:
                a = arith.andi(acc, v)
                d.insert_before(top, a)
                acc = a.result
        return acc if acc is not None else d.const(top, True)

    def emit_one(self, top: Op, v: Value, lits: list[Literal]) -> None:
        if self.d.emit == "bufferization-dealloc":
            self._bufz_dealloc(top, [v], [self.materialize(top, lits)])
        elif not lits:
            self.d.insert_before(top, memref.dealloc(v))
        else:
            body = Block()
            body.append(memref.dealloc(v))
            body.append(scf.yield_())
            self.d.insert_before(top, scf.if_op(self.materialize(top, lits), [],
                                             [Region([body]), Region()]))
        if lits:
            self.stats.conditional += 1
        else:
            self.stats.static += 1

    def _emit_runtime(self, top: Op, group: list[Item], kept: list[Value] = ()) -> list[list[Value]]:
        """Free the buffers of ``group`` once each, each under its condition, none that is
        the buffer of a ``kept`` value: a chain of one-memref ``bufferization.dealloc``s,
        last member first, each retaining the members before it (and ``kept``). A member
        that is an earlier one's buffer is not freed: its condition passes to that member
        (the retain results). Each link lowers to inline pointer comparisons; one
        ``bufferization.dealloc`` of several memrefs would call a helper that allocates
        its pointer and flag arrays on the heap at every execution. Returns, for each kept
        value, the links' results saying it is a freed member's buffer (the ownership that
        passes to it)."""
        d = self.d
        vals = [it.value for it in group]
        conds = [self.materialize(top, it.lits) for it in group]
        passed: list[list[Value]] = [[] for _ in kept]
        for k in range(len(vals) - 1, 0, -1):
            res = self._bufz_dealloc(top, [vals[k]], [conds[k]], vals[:k] + list(kept))
            for j in range(k):
                conds[j] = d.either(conds[j], res[j], top)
            for j, r in enumerate(res[k:]):
                passed[j].append(r)
        first = vals[0]
        if kept or d.emit == "bufferization-dealloc":
            for j, r in enumerate(self._bufz_dealloc(top, [first], [conds[0]], list(kept))):
                passed[j].append(r)
        elif conds[0] in d.constants and d.constants[conds[0]]:
            d.insert_before(top, memref.dealloc(first))
        else:
            body = Block()
            body.append(memref.dealloc(first))
            body.append(scf.yield_())
            d.insert_before(top, scf.if_op(conds[0], [], [Region([body]), Region()]))
        self.stats.runtime += 1
        return passed

    def _bufz_dealloc(self, top: Op, memrefs: list[Value], conds: list[Value],
                      kept: list[Value] | None = None) -> list[Value]:
        """``bufferization.dealloc (memrefs) if (conds) retain (kept)``: frees each memref
        whose condition holds, once per buffer, unless it is the buffer of a kept value;
        its results: for each kept value, whether a freed-if-not-kept memref was its
        buffer with its condition true (the ownership that passes to it)."""
        op = bufferization.dealloc(memrefs, conds, list(kept or []))
        self.d.insert_before(top, op)
        return list(op.results)
