"""Z3 reasoning about slices (``--z3-slices``): prove two subsets of one buffer disjoint
or equal, so that a read and a write of the same alias set need not conflict.

mlir-opt only knows "same static offsets/sizes/strides or same SSA values" (matching
extract_slice/insert_slice pairs). Here offsets, sizes and strides become Z3 integer
terms built from the facts: ``slice_static`` (constants), ``slice_dynamic`` (SSA values),
``const_int`` (``arith.constant`` of index/integer type) and ``arith.addi/subi/muli`` over
them; any other value is a free variable (one per SSA value, so ``%i`` and ``%i + 4``
relate).

Access paths. A use reads or writes all of its operand's buffer, except: the destination
of ``tensor.insert_slice`` (writes the slice), the source of ``tensor.extract_slice`` (read
through the result: the slice), ``tensor.extract``/``tensor.insert`` (one element). A read
by a use that also writes (the destination of ``tensor.insert`` or ``insert_slice``)
counts as all of the buffer: in place, it passes every element outside the slice through
to its result; out of place, its copy reads everything.

Iterations. A read and a write inside one loop body may run in different iterations of
it, where the induction variable, the iteration arguments and everything computed from
them differ. So the values defined inside a region that holds both uses and may run
again between them (a loop body that does not hold the definition they conflict over, or
any region of several blocks, whose branches may cycle) are different unknowns for the
write and for the read: the disjointness proved is across iterations. Walking up from the value through
``extract_slice`` ops (composing offsets/sizes/strides) and same-type equivalent aliases
(DPS inits, ``tensor.insert``/``insert_slice`` destinations, ``tensor.cast``) gives a root
value and a subset of the root's buffer; the views on the way are taken in place (a
triple is only a conflict once its read and write share an alias set, i.e. through them).

* :meth:`SliceProver.disjoint` — both uses reach the same root and, for some dimension,
  the two index intervals ``[off, off + (size - 1) * stride]`` cannot overlap for any
  value of the free variables (strides provably >= 1, or an empty slice).
* :meth:`SliceProver.equal` — two slice ops have provably equal offsets, sizes and
  strides: matching extract/insert pairs. mlir proves this semantically too
  (ValueBoundsConstraintSet, e.g. ``%c1 + %c1`` vs ``2``), so it is used with or without
  ``--z3-slices``; only :meth:`disjoint` is behind the option.

Every query is a validity check (``Not(formula)`` unsat) with a small timeout; "unknown"
counts as not proven, so the result is always sound.
"""

from __future__ import annotations

KINDS = ("offset", "size", "stride")
MAX_DEPTH = 64


class SliceProver:
    """Slice terms and proofs over one :class:`engine.oneshot.Analysis`."""

    def __init__(self, an, timeout_ms: int = 200):
        """``an``: an engine/view.py ProgramView. Z3 is loaded, and its context made,
        on the first question that needs it: most triples are settled by their access
        paths alone (a whole-buffer access, or two roots), and importing Z3 costs a
        process ~40 ms."""
        self._z3 = self._ctx = None
        self.an = an
        self.timeout_ms = timeout_ms
        self.operands = {(o, i): v for o, i, v in an.rows["operand"]}
        self.const: dict[int, int] = {}
        res0 = {o: v for v, (o, i) in an.result_of.items() if i == 0}
        for o, n in an.rows["const_int"]:
            if o in res0:
                self.const[res0[o]] = n
        self.vtype = {v: t for v, t in an.rows["value_type"]}
        self.arith = dict(an.rel.index_arith)  # op -> "+" | "-" | "*" (rules: sem_index_arith)
        self.element = {(t.o, t.i) for t in an.rel.element_access}  # uses reading/writing one element
        self.rank = {v: r for v, r in an.rows["value_rank"]}
        self._terms: dict[tuple, object] = {}
        self._op_regions: dict[int, tuple[int, ...]] = {}
        self.repetitive = {t.r for t in an.rel.repetitive_region}
        self.multi_block = {r for _, r, k in an.rows["block"] if k >= 1}
        self._proofs: dict[tuple, bool] = {}
        self.stats = {"queries": 0, "disjoint": 0, "equal": 0}

    @property
    def z3(self):
        if self._z3 is None:
            import z3

            self._z3 = z3
        return self._z3

    @property
    def ctx(self):
        if self._ctx is None:
            self._ctx = self.z3.Context()  # private context: Z3 contexts are not thread-safe
        return self._ctx

    # ------------------------------------------------------------------ terms
    def term(self, v: int, depth: int = 0, fresh: frozenset = frozenset()):
        """Z3 term of index value ``v``; a free variable defined inside a region of
        ``fresh`` is another unknown (primed) than the same variable outside it."""
        key = (v, fresh)
        t = self._terms.get(key)
        if t is not None:
            return t
        z3 = self.z3
        if v in self.const:
            t = z3.IntVal(self.const[v], self.ctx)
        else:
            t = None
            ro = self.an.result_of.get(v)
            if ro is not None and depth < MAX_DEPTH:
                op = self.arith.get(ro[0])
                a, b = self.operands.get((ro[0], 0)), self.operands.get((ro[0], 1))
                if op is not None and a is not None and b is not None:
                    x, y = self.term(a, depth + 1, fresh), self.term(b, depth + 1, fresh)
                    t = x + y if op == "+" else x - y if op == "-" else x * y
            if t is None:
                primed = fresh and not fresh.isdisjoint(self.value_regions(v))
                t = z3.Int(f"v{v}'" if primed else f"v{v}", self.ctx)
        self._terms[key] = t
        return t
    # ------------------------------------------------------------------ nesting
    def op_regions(self, o: int) -> tuple[int, ...]:
        """The regions enclosing op ``o``, innermost first."""
        got = self._op_regions.get(o)
        if got is None:
            an, out, x = self.an, [], o
            while an.block_of.get(x, -1) >= 0:
                r = an.block_region[an.block_of[x]]
                out.append(r)
                x = an.region_parent[r]
            got = self._op_regions[o] = tuple(out)
        return got

    def value_regions(self, v: int) -> tuple[int, ...]:
        """The regions enclosing value ``v``'s definition (a block argument: its block's
        region first)."""
        an = self.an
        if v in an.result_of:
            return self.op_regions(an.result_of[v][0])
        if v in an.bbarg_of:
            r = an.block_region[an.bbarg_of[v][0]]
            return (r, *self.op_regions(an.region_parent[r]))
        return ()

    def fresh_regions(self, ro: int, wo: int, d: int | None) -> frozenset:
        """Regions holding both op ``ro`` and op ``wo`` that may run again between them:
        a loop body that does not hold definition ``d``, or a region of several blocks."""
        common = set(self.op_regions(ro)).intersection(self.op_regions(wo))
        if not common:
            return frozenset()
        held = set(self.value_regions(d)) if d is not None else set()
        return frozenset(r for r in common
                         if (r in self.repetitive and r not in held) or r in self.multi_block)


    def params(self, o: int, dry: bool = False, fresh: frozenset = frozenset()) -> list[tuple] | None:
        """[(offset, size, stride)] per dimension of slice op ``o`` (None: incomplete);
        ``dry``: as many ``None`` as dimensions, no term made."""
        sl = self.an.slices.get(o)
        if not sl:
            return None
        rank = 1 + max(d for _, d in sl)
        if dry:
            return None if any((k, d) not in sl for d in range(rank) for k in KINDS) \
                else [tuple(sl[(k, d)] for k in KINDS) for d in range(rank)]
        out = []
        for d in range(rank):
            dim = []
            for k in KINDS:
                p = sl.get((k, d))
                if p is None:
                    return None
                dim.append(self.z3.IntVal(p[1], self.ctx) if p[0] == "c" else self.term(p[1], 0, fresh))
            out.append(tuple(dim))
        return out

    def one_element(self, o: int, i: int, dry: bool = False,
                    fresh: frozenset = frozenset()) -> list[tuple] | None:
        """The one-element subset [idx, idx + 1) per dimension accessed by op o's
        operand i (``dry``: see :meth:`params`)."""
        rank = self.rank.get(self.an.tuse[(o, i)])
        if rank is None:
            return None
        idx = [self.operands.get((o, i + 1 + d)) for d in range(rank)]
        if any(x is None for x in idx):
            return None
        if dry:
            return [(("v", x), ("c", 1), ("c", 1)) for x in idx]
        one = self.z3.IntVal(1, self.ctx)
        return [(self.term(x, 0, fresh), one, one) for x in idx]

    # ------------------------------------------------------------------ access paths
    def access(self, u: tuple[int, int], write: bool, dry: bool = False,
               fresh: frozenset = frozenset()) -> tuple[int, list[tuple] | None]:
        """(root value, subset of the root's buffer or None = all of it) that use u writes
        (``write``) or reads; values defined in the regions ``fresh`` are other unknowns
        (see the module doc). ``dry``: the same root and whether there is a subset,
        without Z3: per dimension its (offset, size, stride) as the facts give them
        (``("c", n)`` or ``("v", value)``), or None once composed through a slice."""
        an = self.an
        o, i = u
        v = an.tuse[u]
        sub = None
        if o in an.subset_insert and o not in an.whole_insert \
                and i == an.subset_insert[o][1] and u in an.writes:
            if not write:
                return v, None  # its read passes everything BUT the slice through
            sub = self.params(o, dry, fresh)  # insert_slice writes the slice of its destination
        elif o in an.subset_extract and i == an.subset_extract[o]:
            sub = self.params(o, dry, fresh)  # extract_slice exposes (reads via its result) the slice
        elif u in self.element and (write or u not in an.writes):
            sub = self.one_element(o, i, dry, fresh)  # tensor.extract / tensor.insert: one element
        if sub is not None and len(sub) != self.rank.get(v, -1):
            return v, None
        for _ in range(MAX_DEPTH):
            ro = an.result_of.get(v)
            if ro is None:
                break
            o = ro[0]
            if o in an.subset_extract:
                src_u = (o, an.subset_extract[o])
                src = an.tuse.get(src_u)
                p = self.params(o, dry, fresh)
                if src is None or p is None \
                        or self.rank.get(src) != len(p) or self.rank.get(v) != len(p):
                    break
                if dry:  # a composed subset: no longer plain parameters
                    sub = [None] * len(p)
                    v = src
                    continue
                sub = p if sub is None else [
                    (po + so * ps, ss, ps * st) for (po, _, ps), (so, ss, st) in zip(p, sub, strict=True)]
                v = src
                continue
            al = an.aliasing_operands(v)
            if len(al) != 1:
                break
            w, k = al[0]
            x = an.tuse[w]
            if k != "equivalent":
                break
            # same type, or a cast between shapes of one rank (an equivalent alias keeps
            # every element at its index)
            same = self.vtype.get(x) == self.vtype.get(v) or (
                w not in an.writes and self.rank.get(x) == self.rank.get(v) is not None)
            if not same:
                break
            v = x
        return v, sub

    # ------------------------------------------------------------------ proofs
    def _valid(self, key, formula) -> bool:
        r = self._proofs.get(key)
        if r is None:
            z3 = self.z3
            s = z3.Solver(ctx=self.ctx)
            s.set("timeout", self.timeout_ms)
            s.add(z3.Not(formula))
            self.stats["queries"] += 1
            r = self._proofs[key] = s.check() == z3.unsat
        return r

    def _disjoint_subsets(self, a: list[tuple], b: list[tuple]) -> bool:
        z3 = self.z3
        if len(a) != len(b):
            return False
        for d, ((o1, s1, t1), (o2, s2, t2)) in enumerate(zip(a, b, strict=True)):
            e1, e2 = o1 + (s1 - 1) * t1, o2 + (s2 - 1) * t2
            f = z3.Or(s1 <= 0, s2 <= 0,
                      z3.And(t1 >= 1, t2 >= 1, z3.Or(e1 < o2, e2 < o1)))
            if self._valid(("dis", d, str(f)), f):
                return True
        return False

    def _free(self, p: tuple) -> bool:
        """A parameter that is a value :meth:`term` makes a free variable of."""
        if p[0] != "v" or p[1] in self.const:
            return False
        ro = self.an.result_of.get(p[1])
        return ro is None or self.arith.get(ro[0]) is None \
            or self.operands.get((ro[0], 0)) is None or self.operands.get((ro[0], 1)) is None

    def _may_overlap(self, a: list, b: list) -> bool:
        """Whether the dry subsets ``a`` and ``b`` overlap for some values of their
        parameters in every dimension, so that Z3 cannot prove them disjoint: offsets that
        are free variables (equal values make the ranges meet) and sizes and strides that
        are positive constants."""
        if len(a) != len(b):
            return False
        for da, db in zip(a, b, strict=True):
            if da is None or db is None:
                return False
            for dim in (da, db):
                if not self._free(dim[0]) or any(p[0] != "c" or p[1] < 1 for p in dim[1:]):
                    return False
        return True

    def disjoint(self, r: tuple[int, int], w: tuple[int, int], d: int | None = None) -> bool:
        """Read use r and write use w touch provably disjoint parts of one buffer, in
        whichever iterations of the loops around both they run (``d``: the definition
        they conflict over; a loop body holding it runs both in one iteration)."""
        root_r, sub_r = self.access(r, write=False, dry=True)
        if sub_r is None:
            return False
        root_w, sub_w = self.access(w, write=True, dry=True)
        if sub_w is None or root_r != root_w or self._may_overlap(sub_r, sub_w):
            return False  # settled without Z3
        root_r, sub_r = self.access(r, write=False)
        if sub_r is None:
            return False
        root_w, sub_w = self.access(w, write=True, fresh=self.fresh_regions(r[0], w[0], d))
        if sub_w is None or root_r != root_w:
            return False
        ok = self._disjoint_subsets(sub_r, sub_w)
        if ok:
            self.stats["disjoint"] += 1
        return ok

    def equal(self, o1: int, o2: int) -> bool:
        """Slice ops o1 and o2 have provably equal offsets, sizes and strides."""
        a, b = self.params(o1), self.params(o2)
        if a is None or b is None or len(a) != len(b):
            return False
        z3 = self.z3
        f = z3.And([x == y for da, db in zip(a, b, strict=True) for x, y in zip(da, db, strict=True)])
        ok = self._valid(("eq", o1, o2), f)
        if ok:
            self.stats["equal"] += 1
        return ok
