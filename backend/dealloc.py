"""Ownership-based buffer deallocation: rewrite memref IR from the derived relations of
``rules/memref_alias.dl``, ``rules/liveness.dl`` and ``rules/ownership.dl``.

One Datalog run (:func:`derive`) decides everything: which values need an i1 ownership
indicator (``needs_indicator``), which edges transfer ownership (``transfer``,
``transfer_init``), which forwarded values become clones (``clone_fwd``, ``return_clone``)
and which values each terminator frees on which edge (``dealloc_edge``). This module only
materialises those decisions:

1. indicators: an extra ``i1`` block argument (cf), ``scf.if`` result, or ``scf.for``
   iter_arg + result next to each memref whose ownership is statically unknown; every
   edge into it passes ``true`` (clone), the forwarded value's indicator (transfer) or
   ``false`` (borrow);
2. clones on edges and returns that need them;
3. per terminator, for each value to free, the condition ``own(v) ∧ (edge conditions)``
   (``cf.cond_br`` edges are ``c`` / ``¬c``). Z3 folds it: valid -> plain
   ``memref.dealloc``; unsatisfiable -> nothing; otherwise ``scf.if %cond { dealloc }``.
   Z3 also proves that two values freed by one terminator are distinct allocations
   (disjoint roots, from Datalog, or mutually exclusive conditions); without a proof the
   group is freed by one ``bufferization.dealloc`` (runtime alias check).

``emit="bufferization-dealloc"`` writes every dealloc as
``bufferization.dealloc (%m : T) if (%cond)`` instead (lowered by mlir-opt's
``--bufferization-lower-deallocations`` / ``--convert-bufferization-to-memref``).
"""

from __future__ import annotations

from collections import defaultdict

import z3
from bufferlog.frontend.attrs import DenseArrayAttr, IntegerAttr
from bufferlog.frontend.facts import export
from bufferlog.frontend.ir import Block, Module, Op, Region, Value
from bufferlog.frontend.types import IntegerType, MemRefType

from bufferlog.core import UserError, rules_dir

from .lower_switch import lower_switches

I1 = IntegerType(1)
RULES = rules_dir()
RULE_FILES = ["schema.dl", "memref_alias.dl", "liveness.dl", "ownership.dl"]
OUTPUTS = ["fwd", "fwd_init", "transfer", "transfer_init", "clone_fwd", "ownership",
           "needs_indicator", "dealloc_edge", "return_transfer", "return_clone", "owning_root",
           "unsupported", "slot_pair"]
EMITS = ("memref-dealloc", "bufferization-dealloc")


def derive(facts, engine: str = "auto", rules_dir=None) -> dict[str, set[tuple]]:
    """The single Datalog run: facts in, the relations this backend reads out."""
    from bufferlog.engine.program import Program
    from bufferlog.engine.run import run

    prog = Program.load([RULES / f for f in RULE_FILES], rules_dir)
    rows = {k: v for k, v in facts.rows.items() if k in prog.inputs}
    return run(prog, rows, engine=engine, relations=OUTPUTS).relations


class Stats:
    def __init__(self) -> None:
        self.static = 0
        self.conditional = 0
        self.runtime = 0
        self.clones = 0
        self.indicators = 0
        self.folded = 0


class Dealloc:
    def __init__(self, module: Module, emit: str = "memref-dealloc", engine: str = "auto"):
        if emit not in EMITS:
            raise UserError(f"unknown --emit '{emit}' (choose from {', '.join(EMITS)})")
        self.m = module
        self.emit = emit
        self.engine = engine
        self.stats = Stats()

    # ------------------------------------------------------------------ driver
    def run(self) -> Module:
        lower_switches(self.m)  # cf.switch -> cf.cond_br chain (backend/lower_switch.py)
        self._check_input()
        f = export(self.m)
        self.f = f
        rel = derive(f, self.engine)
        self.rel = rel
        for (o,) in sorted(rel["unsupported"]):
            op = f.ops[o]
            raise UserError(f"dealloc: unsupported op '{op.name}' with memref results/operands "
                            "(aliasing or ownership unknown)", op.loc)
        self.val = dict(enumerate(f.values))  # fact id -> current Value
        self.own = {v: s for v, s in rel["ownership"]}
        self.ind: dict[int, Value] = {}
        self.consts: dict[tuple[Op, bool], Value] = {}
        self.solver_vars: dict[Value, z3.BoolRef] = {}
        self.ctx = z3.Context()  # one per run: Z3 contexts are not thread-safe
        self._make_indicators()
        self._wire_edges()
        self._returns()
        self._deallocs()
        for c in self.consts.values():  # i1 constants whose every use Z3 folded away
            if not c.uses:
                c.op.parent.ops.remove(c.op)
                c.op.parent = None
        return self.m

    def _check_input(self) -> None:
        from bufferlog.frontend import types as T
        for op in self.m.walk():
            if op.successors and op.name not in ("cf.br", "cf.cond_br"):  # e.g. an unknown op
                raise UserError(f"dealloc: branch op '{op.name}' is not supported "
                                "(supported: cf.br, cf.cond_br)", op.loc)
            for v in [*op.operands, *op.results]:
                if T.is_tensor(v.type):
                    raise UserError("dealloc expects memref IR (no tensors); run "
                                    "`bufferlog bufferize` first", op.loc)

    # ------------------------------------------------------------------ helpers
    def _func_of(self, op: Op) -> Op:
        while op.name != "func.func":
            op = op.parent_op
        return op

    def const(self, anchor: Op, value: bool) -> Value:
        fn = self._func_of(anchor)
        key = (fn, value)
        if key not in self.consts:
            c = Op("arith.constant", (), [I1], {"value": IntegerAttr(int(value), I1)})
            fn.regions[0].entry.insert(0, c)
            self.consts[key] = c.result
        return self.consts[key]

    def indicator(self, vid: int, anchor: Op) -> Value:
        s = self.own.get(vid, "false")
        if s == "indicator":
            return self.ind[vid]
        return self.const(anchor, s == "true")

    # ------------------------------------------------------------------ 1. indicators
    def _make_indicators(self) -> None:
        need = {v for (v,) in self.rel["needs_indicator"]}
        f = self.f
        self.newop: dict[Op, Op] = {}
        self.slots: dict[Op, list[int]] = {}  # new op -> result indices with an indicator
        self.before_slots: dict[Op, list[int]] = {}  # new scf.while -> `before` arg indices
        by_op: dict[Op, list[int]] = defaultdict(list)
        whiles: dict[Op, tuple[set[int], set[int]]] = {}
        for vid in sorted(need):
            v = f.values[vid]
            if hasattr(v, "block"):
                blk = v.block
                parent = blk.parent_op
                if parent is not None and parent.name == "scf.for" and blk is parent.regions[0].entry:
                    continue  # created with its loop slot
                if parent is not None and parent.name == "scf.while":
                    slots = whiles.setdefault(parent, (set(), set()))
                    if blk is parent.regions[0].entry:
                        slots[0].add(v.index)
                        continue
                    if blk is parent.regions[1].entry:
                        slots[1].add(v.index)
                        continue
                self.ind[vid] = blk.add_arg(I1, f"own_{v.name or vid}")
                self.stats.indicators += 1
            elif v.op.name == "scf.while":
                whiles.setdefault(v.op, (set(), set()))[1].add(v.index)
            else:
                by_op[v.op].append(v.index)
        for op, idxs in by_op.items():
            self._rebuild_with_indicators(op, sorted(set(idxs)))
        for op, (before, after) in whiles.items():
            self._rebuild_while(op, sorted(before), sorted(after))

    def _replace_op(self, op: Op, operands: list[Value], n_extra: int) -> Op:
        """A copy of ``op`` with ``operands`` and ``n_extra`` more i1 results, taking over
        its regions, uses and fact id."""
        f = self.f
        new = Op(op.name, operands, [r.type for r in op.results] + [I1] * n_extra,
                 dict(op.attrs), None, list(op.successors), op.loc,
                 [r.name for r in op.results] + [None] * n_extra)
        regions = list(op.regions)
        op.regions = []
        for r in regions:
            new.add_region(r)
        op.parent.insert_before(op, new)
        for old, nr in zip(op.results, new.results, strict=False):
            old.replace_all_uses_with(nr)
            self.val[f.value_id[old]] = nr
        op.erase()
        self.newop[op] = new
        # keep facts' op table pointing at the live op
        f.ops[f.op_id[op]] = new
        f.op_id[new] = f.op_id[op]
        return new

    def _rebuild_with_indicators(self, op: Op, idxs: list[int]) -> None:
        f = self.f
        operands = list(op.operands)
        if op.name == "scf.for":
            operands += [self.const(op, False)] * len(idxs)  # placeholders, set in _wire_edges
        old_results = list(op.results)
        new = self._replace_op(op, operands, len(idxs))
        self.slots[new] = idxs
        for j, k in enumerate(idxs):
            self.ind[f.value_id[old_results[k]]] = new.results[len(old_results) + j]
            self.stats.indicators += 1
            if op.name == "scf.for":
                body = new.regions[0].entry
                a = body.add_arg(I1, None)
                self.ind[f.value_id[body.args[k + 1]]] = a

    def _rebuild_while(self, op: Op, before: list[int], after: list[int]) -> None:
        """scf.while slots: an i1 `before` argument (+ init operand, + after-region yield
        operand) per ``before`` index; an i1 `after` argument and result (+ scf.condition
        operand) per ``after`` index."""
        f = self.f
        operands = list(op.operands) + [self.const(op, False)] * len(before)  # set in _wire_edges
        old_results = list(op.results)
        new = self._replace_op(op, operands, len(after))
        self.slots[new] = after
        self.before_slots[new] = before
        bblk, ablk = new.regions[0].entry, new.regions[1].entry
        for k in before:
            self.ind[f.value_id[bblk.args[k]]] = bblk.add_arg(I1, None)
            self.stats.indicators += 1
        for j, k in enumerate(after):
            self.ind[f.value_id[ablk.args[k]]] = ablk.add_arg(I1, None)
            self.ind[f.value_id[old_results[k]]] = new.results[len(old_results) + j]
            self.stats.indicators += 1

    # ------------------------------------------------------------------ 2. edges
    def _edge_value(self, t_id: int, i: int, k: int, anchor: Op) -> Value:
        """The ownership indicator travelling with operand k of edge i of terminator t."""
        tr = self._tr.get((t_id, i, k))
        if (t_id, i, k) in self._clone:
            return self.const(anchor, True)
        if tr is not None:
            return self.indicator(tr, anchor)
        return self.const(anchor, False)

    def _wire_edges(self) -> None:
        f, rel = self.f, self.rel
        self._tr = {(t, i, k): v for t, i, k, v, _ in rel["transfer"]}
        self._clone = {(t, i, k) for t, i, k, _ in rel["clone_fwd"]}
        # clones on edges
        for t, i, k, _v in sorted(rel["clone_fwd"]):
            top = f.ops[t]
            src = top.operands[k]
            c = self._clone_before(top, src)
            top.set_operand(k, c)
            self.stats.clones += 1
            if top.name == "cf.cond_br":
                # the clone is made before the branch but handed over on edge i only:
                # free it when the other edge is taken
                cnd = top.operands[0]
                other = self._z3_of(cnd) if i == 1 else z3.Not(self._z3_of(cnd))
                if not self._valid(z3.Not(other)):
                    self._emit_one(top, c, [] if self._valid(other) else [(cnd, i == 0)])
        # destination value id -> (t, i, k) per edge
        dst_of: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
        for t, i, k, _v, d in rel["fwd"]:
            dst_of[(t, i)][d] = k
        for t_id in sorted({t for t, _i in dst_of} | self._yield_terms()):
            top = f.ops[t_id]
            if top.name == "cf.br" or top.name == "cf.cond_br":
                self._wire_cf(t_id, top)
            elif top.name in ("scf.yield", "scf.condition"):
                self._wire_yield(t_id, top)
        # loop inits
        inits = {(o, k): v for o, k, v, _d in rel["transfer_init"]}
        for op in self.newop.values():
            if op.name == "scf.for":
                first, idxs = 3 + self._n_orig(op), self.slots[op]
            elif op.name == "scf.while":
                idxs = self.before_slots[op]
                first = len(op.operands) - len(idxs)
            else:
                continue
            oid = self.f.op_id[op]
            for j, k in enumerate(idxs):
                v = inits.get((oid, k))
                val = self.indicator(v, op) if v is not None else self.const(op, False)
                op.set_operand(first + j, val)

    def _yield_terms(self) -> set[int]:
        return {self.f.op_id[op] for op in self.m.walk()
                if op.name in ("scf.yield", "scf.condition") and op in self.f.op_id}

    def _n_orig(self, op: Op) -> int:
        return len(op.results) - len(self.slots.get(op, []))

    def _wire_cf(self, t_id: int, top: Op) -> None:
        f = self.f
        extra: list[list[Value]] = []
        for i, succ in enumerate(top.successors):
            vals = []
            for a in succ.args:
                aid = f.value_id.get(a)
                if aid is None or aid not in self.ind:
                    continue
                k = top.successor_operand_range(i)[0] + a.index
                vals.append(self._edge_value(t_id, i, k, top))
            extra.append(vals)
        if not any(extra):
            return
        segs = [top.successor_operands(i) for i in range(len(top.successors))]
        lead = top.operands[: len(top.operands) - sum(len(s) for s in segs)]
        new_ops = list(lead)
        for s, e in zip(segs, extra, strict=True):
            new_ops += list(s) + e
        top.set_operands(new_ops)
        if "operandSegmentSizes" in top.attrs:
            top.attrs["operandSegmentSizes"] = DenseArrayAttr(
                "i32", tuple([len(lead)] + [len(s) + len(e) for s, e in zip(segs, extra, strict=True)]))

    def _wire_yield(self, t_id: int, top: Op) -> None:
        parent = top.parent.parent_op
        if parent not in self.slots:
            return
        if top.name == "scf.condition":  # operand k + 1 feeds `after` arg k and result k
            ks = [k + 1 for k in self.slots[parent]]
        elif parent.name == "scf.while":  # after-region yield: operand k -> `before` arg k
            ks = self.before_slots[parent]
        else:
            ks = self.slots[parent]
        vals = [self._edge_value(t_id, 0, k, top) for k in ks]
        top.set_operands(list(top.operands) + vals)

    @staticmethod
    def _clone_before(anchor: Op, src: Value) -> Value:
        for c in clone_ops(src, anchor.loc):
            anchor.parent.insert_before(anchor, c)
        return c.result

    # ------------------------------------------------------------------ 3. returns
    def _returns(self) -> None:
        f = self.f
        self._suppress: set[tuple[int, int]] = set()
        for t, k, v in sorted(self.rel["return_clone"]):
            top = f.ops[t]
            src = top.operands[k]
            s = self.own.get(v, "false")
            if s == "indicator":
                ind = self.ind[v]
                then_b, else_b = Block(), Block()
                then_b.append(Op("scf.yield", [src]))
                for c in clone_ops(src, top.loc):
                    else_b.append(c)
                else_b.append(Op("scf.yield", [c.result]))
                sel = Op("scf.if", [ind], [src.type], {}, [Region([then_b]), Region([else_b])])
                top.parent.insert_before(top, sel)
                top.set_operand(k, sel.result)
                self._suppress.add((t, v))  # owned -> returned as is; else cloned, not freed
            else:
                top.set_operand(k, self._clone_before(top, src))
            self.stats.clones += 1

    # ------------------------------------------------------------------ 4. deallocs
    def _var(self, v: Value) -> z3.BoolRef:
        if v not in self.solver_vars:
            self.solver_vars[v] = z3.Bool(f"b{len(self.solver_vars)}", self.ctx)
        return self.solver_vars[v]

    def _z3_of(self, v: Value) -> z3.BoolRef:
        d = getattr(v, "op", None)
        if d is not None and d.name == "arith.constant":
            return z3.BoolVal(bool(d.attrs["value"].value), self.ctx)
        return self._var(v)

    def _deallocs(self) -> None:
        f = self.f
        per_t: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
        for t, i, v in self.rel["dealloc_edge"]:
            if (t, v) in self._suppress:
                continue
            per_t[t][v].add(i)
        roots: dict[int, set[int]] = defaultdict(set)
        for v, r in self.rel["owning_root"]:
            roots[v].add(r)
        for t in sorted(per_t):
            top = f.ops[t]
            n_edges = max(1, len(top.successors))
            items = []
            for vid in sorted(per_t[t]):
                edges = per_t[t][vid]
                own = self.indicator(vid, top)
                econd = z3.BoolVal(True, self.ctx)
                parts: list[tuple[Value, bool]] = []  # (i1 value, negate)
                if len(edges) < n_edges and top.name == "cf.cond_br":
                    c = top.operands[0]
                    (i,) = edges
                    econd = self._z3_of(c) if i == 0 else z3.Not(self._z3_of(c))
                    parts.append((c, i == 1))
                cond = z3.And(self._z3_of(own), econd)
                if self._valid(z3.Not(cond)):
                    self.stats.folded += 1
                    continue
                if self._valid(cond):
                    parts = []
                elif not self._valid(self._z3_of(own)):
                    parts.insert(0, (own, False))
                items.append((vid, cond, parts))
            # distinctness: overlapping roots must have exclusive conditions
            groups = self._distinct_groups(items, roots)
            for grp in groups:
                if len(grp) == 1:
                    vid, _cond, parts = grp[0]
                    self._emit_one(top, self.val[vid], parts)
                else:
                    self._emit_runtime(top, [(self.val[v], p) for v, _c, p in grp])

    def _valid(self, e: z3.BoolRef) -> bool:
        s = z3.Solver(ctx=self.ctx)
        s.add(z3.Not(e))
        return s.check() == z3.unsat

    def _distinct_groups(self, items, roots) -> list[list]:
        parent = list(range(len(items)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for a in range(len(items)):
            for b in range(a + 1, len(items)):
                va, ca, _ = items[a]
                vb, cb, _ = items[b]
                if roots[va].isdisjoint(roots[vb]):
                    continue  # distinct allocation sites: never the same buffer
                if self._valid(z3.Not(z3.And(ca, cb))):
                    continue  # never both owned at once
                parent[find(a)] = find(b)
        groups: dict[int, list] = defaultdict(list)
        for k, it in enumerate(items):
            groups[find(k)].append(it)
        return list(groups.values())

    def _materialize(self, top: Op, parts: list[tuple[Value, bool]]) -> Value:
        acc = None
        for v, neg in parts:
            if neg:
                x = Op("arith.xori", [v, self.const(top, True)], [I1])
                top.parent.insert_before(top, x)
                v = x.result
            if acc is None:
                acc = v
            else:
                a = Op("arith.andi", [acc, v], [I1])
                top.parent.insert_before(top, a)
                acc = a.result
        return acc

    def _emit_one(self, top: Op, v: Value, parts: list[tuple[Value, bool]]) -> None:
        if self.emit == "bufferization-dealloc":
            cond = self._materialize(top, parts) if parts else self.const(top, True)
            self._bufz_dealloc(top, [v], [cond])
            self.stats.static += not parts
            self.stats.conditional += bool(parts)
            return
        if not parts:
            top.parent.insert_before(top, Op("memref.dealloc", [v], []))
            self.stats.static += 1
            return
        cond = self._materialize(top, parts)
        body = Block()
        body.append(Op("memref.dealloc", [v], []))
        body.append(Op("scf.yield", []))
        top.parent.insert_before(top, Op("scf.if", [cond], [], {}, [Region([body]), Region()]))
        self.stats.conditional += 1

    def _emit_runtime(self, top: Op, group) -> None:
        conds = [self._materialize(top, p) if p else self.const(top, True) for _v, p in group]
        self._bufz_dealloc(top, [v for v, _p in group], conds)
        self.stats.runtime += 1

    def _bufz_dealloc(self, top: Op, memrefs: list[Value], conds: list[Value]) -> None:
        op = Op("bufferization.dealloc", [*memrefs, *conds], [],
                {"operandSegmentSizes": DenseArrayAttr("i32", (len(memrefs), len(conds), 0))})
        top.parent.insert_before(top, op)


VIEW_OPS = ("memref.subview", "memref.cast", "memref.expand_shape", "memref.collapse_shape",
            "memref.reinterpret_cast")


def clone_ops(src: Value, loc) -> list[Op]:
    """Ops cloning ``src`` into a fresh buffer of the same type (the last op's result).
    ``bufferization.clone`` lowers by allocating an identity buffer and casting it, which
    cannot give a static non-identity layout (e.g. ``strided<[1], offset: 2>``); such a
    view is cloned through its base: clone the base, replay the view ops on the clone.
    Freeing the cloned view later frees that whole clone (its allocated pointer)."""
    from bufferlog.backend.bufferize import cast_compatible

    def castable(t) -> bool:
        return not isinstance(t, MemRefType) or t.layout is None or cast_compatible(
            MemRefType(t.shape, t.elem), t)

    chain, base = [], src
    while not castable(base.type):
        op = getattr(base, "op", None)
        if op is None or op.name not in VIEW_OPS:
            chain, base = [], src  # no base to clone through: plain clone, as MLIR would
            break
        chain.append(op)
        base = op.operands[0]
    ops = [Op("bufferization.clone", [base], [base.type], {}, loc=loc)]
    for view in reversed(chain):
        ops.append(Op(view.name, [ops[-1].result, *view.operands[1:]],
                      [r.type for r in view.results], dict(view.attrs), loc=loc))
    return ops


def deallocate(module: Module, emit: str = "memref-dealloc", engine: str = "auto") -> Stats:
    d = Dealloc(module, emit, engine)
    d.run()
    return d.stats
