"""Ownership-based buffer deallocation: rewrite memref IR from the relations derived by
``rules/dealloc.dl`` (read through :mod:`backend.dealloc_rules`).

One Datalog run decides everything: which values need an i1 ownership indicator
(``needs_indicator``) and where those indicators travel (``slot_edge``, ``slot_init``),
which edges hand ownership over (``edge_gives``, ``init_gives``), which forwarded values
become clones (``clone_fwd``, ``return_clone``) and which values each terminator frees on
which edge (``dealloc_edge``). This module only materialises those decisions, without
knowing any op by name (op knowledge is in ``rules/ops_memref.dl``):

1. dead buffers (``dead_buffer``: an alloc or clone nothing reads) go, with their stores
   and frees;
2. indicators: an ``i1`` block argument or op result appended next to each memref whose
   ownership is statically unknown; every edge or init feeding it gets an appended
   operand: ``true`` (a clone), the forwarded owner's indicator (a transfer), ``false``
   (a borrow), or ``ind(d) or own(u)`` for a value ``d`` that owns its buffer or is the
   buffer of ``u``, which goes out of scope there (``alt_transfer``: ``u`` is then freed
   only under ``d``'s indicator, ``alt_free``);
3. clones on edges and returns that need them;
4. frees before each terminator (:mod:`backend.dealloc_frees`, with Z3).

``emit="bufferization-dealloc"`` writes every free as
``bufferization.dealloc (%m : T) if (%cond)`` instead (lowered by mlir-opt's
``--bufferization-lower-deallocations`` / ``--convert-bufferization-to-memref``).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import DenseArrayAttr
from bufferlog.frontend.facts import export
from bufferlog.frontend.ir import Block, BlockArg, Loc, Module, Op, OpResult, Region, Value
from bufferlog.frontend.types import MemRefType

from bufferlog.core import UserError

from .dealloc_frees import I1, Frees, Stats
from .dealloc_rules import derive
from .ir_edit import BlockEdits, walk_ops
from .layout_questions import LayoutQuestions
from .lower_switch import lower_switches
from .ops import arith, bufferization, memref, scf
from .output_map import handover

EMITS = ("memref-dealloc", "bufferization-dealloc")

__all__ = ["EMITS", "Dealloc", "Stats", "clone_ops", "deallocate"]


class Dealloc:
    def __init__(self, module: Module, emit: str = "memref-dealloc", engine: str = "auto",
                 rules_dir: str | Path | None = None, free_at_last_use: bool = True,
                 reuse: bool = False):
        if emit not in EMITS:
            raise UserError(f"unknown --emit '{emit}' (choose from {', '.join(EMITS)})")
        self.m = module
        self.emit = emit
        self.engine = engine
        self.rules_dir = rules_dir
        self.layouts = LayoutQuestions(engine, rules_dir)  # how a view is cloned
        self.free_at_last_use = free_at_last_use
        self.reuse = reuse  # share dead buffers (backend/plan_reuse.py)
        self.stats = Stats()

    # ------------------------------------------------------------------ driver
    def run(self) -> Module:
        lower_switches(self.m)  # cf.switch -> cf.cond_br chain (backend/lower_switch.py)
        self._check_no_tensors()
        self.f = f = export(self.m)
        self.rel = rel = derive(f, self.engine, self.rules_dir)
        self._check_supported()
        self.val = dict(enumerate(f.values))  # fact id -> Value
        self.own = dict(sorted(rel.ownership))
        self.constants: dict[Value, bool] = {self.val[v]: bool(b) for v, b in sorted(rel.const_bool)}
        self.consts: dict[tuple[Op, bool], Value] = {}
        self.ind: dict[int, Value] = {}
        self.edits = BlockEdits()
        self.cause: str | None = None  # why the ops inserted now exist (debug locations)
        self._top: dict[Op, Op] = {}
        self._edge_conds: dict[int, list[tuple]] = defaultdict(list)
        for row in sorted(rel.edge_cond):
            self._edge_conds[row[0]].append(row)
        self._views = dict(sorted(rel.view_source))
        self.frees = Frees(self)
        self._remove_dead_buffers()
        self._make_indicators()
        self._clones_on_edges()
        self._wire_slots()
        self._returns()
        self.frees.run()
        self._check_ownership()
        self.edits.flush()
        from .plan_explain import free_notes, reuse_notes

        self.stats.notes = free_notes(rel, f, self.free_at_last_use)
        if self.reuse and self.free_at_last_use:
            from .plan_reuse import share_buffers

            reuses = share_buffers(rel, self.val)
            self.stats.reused = len(reuses)
            self.stats.notes += reuse_notes(reuses)
        for c in self.consts.values():  # i1 constants whose every use Z3 folded away
            if not c.uses:
                c.op.erase()
        return self.m

    def _check_no_tensors(self) -> None:
        for op in walk_ops(self.m):
            if any(T.is_tensor(v.type) for v in [*op.operands, *op.results]):
                raise UserError("dealloc expects memref IR (no tensors); run "
                                "`bufferlog bufferize` first", op.loc)

    def _check_supported(self) -> None:
        ops = self.f.ops
        for (o,) in sorted(self.rel.unsupported_branch):
            raise UserError(f"dealloc: branch op '{ops[o].name}' is not supported (no "
                            "mem_branch fact in rules/ops_memref.dl)", self._at(ops[o]))
        for (o,) in sorted(self.rel.unknown_effects):
            raise UserError("ops with unknown memory side effects are not supported "
                            f"('{ops[o].name}'; describe it in rules/ops_memref.dl)", self._at(ops[o]))
        for (o,) in sorted(self.rel.unsupported):
            raise UserError(f"dealloc: unsupported op '{ops[o].name}' with memref results "
                            "(aliasing or ownership unknown)", self._at(ops[o]))

    def _at(self, op: Op) -> Loc:
        """Where mlir-opt locates ``op``: at its name, after any ``%r =``."""
        from bufferlog.frontend.verify import _RESULT_BINDING

        loc, lines = op.loc, self.m.source_lines
        m = _RESULT_BINDING.match(lines[loc.line - 1], loc.col - 1) if 0 < loc.line <= len(lines) else None
        return Loc(loc.file, loc.line, m.end() + 1) if m else loc

    # ------------------------------------------------------------------ helpers
    def insert_before(self, anchor: Op, op: Op) -> None:
        """Insert ``op`` before ``anchor``; it takes the anchor's location, named by
        ``self.cause`` (why the op exists: printed with debug info)."""
        for o in op.walk():  # with the ops of its regions (a guarded free's scf.if)
            if not o.loc.line:
                o.loc, o.src_loc, o.name_loc = anchor.loc, anchor.src_loc, anchor.name_loc
            if o.cause is None:
                o.cause = self.cause
        self.edits.insert_before(anchor, op)

    def describe(self, v: Value) -> str:
        """``v`` by its source name, else by the op that made it and where."""
        if v.name or not isinstance(v, OpResult):
            return self.name(v)
        return f"the {v.op.name} of {v.op.loc}"

    @staticmethod
    def name(v: Value) -> str:
        """``v`` as the source names it (``%r#1`` for a result of a multi-result op)."""
        if not v.name:
            return "a buffer"
        if isinstance(v, OpResult) and len([r for r in v.op.results if r.name == v.name]) > 1:
            return f"%{v.name}#{v.index}"
        return f"%{v.name}"

    def state(self, vid: int) -> str:
        return self.own.get(vid, "false")

    def edge_cond_of(self, t: int) -> list[tuple]:
        return self._edge_conds.get(t, [])

    def _function_of(self, op: Op) -> Op:
        """The top-level op holding ``op`` (memoised along the path: linear overall)."""
        path = []
        while op not in self._top and op.parent_op is not None and op.parent_op.parent is not None:
            path.append(op)
            op = op.parent_op
        top = self._top.get(op, op)
        for p in path:
            self._top[p] = top
        return top

    def const(self, anchor: Op, value: bool) -> Value:
        fn = self._function_of(anchor)
        key = (fn, value)
        if key not in self.consts:
            c = arith.constant_bool(value)
            fn.regions[0].entry.insert(0, c)
            self.consts[key] = c.result
            self.constants[c.result] = value
        return self.consts[key]

    def either(self, a: Value, b: Value, anchor: Op) -> Value:
        """``a or b`` as an i1 value before ``anchor`` (folded when one is a constant)."""
        for x, y in ((a, b), (b, a)):
            if x in self.constants:
                return x if self.constants[x] else y
        op = arith.ori(a, b)
        self.insert_before(anchor, op)
        return op.result

    def indicator(self, vid: int, anchor: Op) -> Value:
        """The i1 ownership of fact value ``vid``, usable before ``anchor``."""
        s = self.state(vid)
        return self.ind[vid] if s == "indicator" else self.const(anchor, s == "true")

    # ------------------------------------------------------------------ 1. dead buffers
    def _remove_dead_buffers(self) -> None:
        for (o,) in sorted(self.rel.dead_buffer):
            op = self.f.ops[o]
            for r in op.results:
                for u in list(r.uses):
                    handover(u.op)
                    u.op.erase()  # stores into it and frees of it (no results)
            handover(op)
            op.erase()

    # ------------------------------------------------------------------ 2. indicators
    def _make_indicators(self) -> None:
        f = self.f
        args: dict[Block, list[BlockArg]] = defaultdict(list)
        results: dict[Op, list[OpResult]] = defaultdict(list)
        for (vid,) in sorted(self.rel.needs_indicator):
            v = f.values[vid]
            if isinstance(v, BlockArg):
                args[v.block].append(v)
            else:
                results[v.op].append(v)
        for blk, vs in args.items():
            for v in sorted(vs, key=lambda a: a.index):
                self.ind[f.value_id[v]] = blk.add_arg(I1, f"own_{v.name}" if v.name else None)
                self.stats.indicators += 1
        for op, vs in results.items():
            for v in sorted(vs, key=lambda r: r.index):
                r = OpResult(I1, op, len(op.results))
                op.results.append(r)
                self.ind[f.value_id[v]] = r
                self.stats.indicators += 1

    # ------------------------------------------------------------------ 3. clones, slots
    def _clones_on_edges(self) -> None:
        self._cloned = {(t, i, k) for t, i, k, _ in sorted(self.rel.clone_fwd)}
        for t, i, k, _v in sorted(self.rel.clone_fwd):
            top = self.f.ops[t]
            self.cause = (f"clone of {self.describe(top.operands[k])}: handed over on edge {i} of "
                          "this terminator while its owner keeps it")
            c = self._clone_before(top, top.operands[k])
            top.set_operand(k, c)
            self.stats.clones += 1
            # made before the branch but handed over on edge i only: free it on the others
            for _t, j, cv, w in self.edge_cond_of(t):
                if j != i:
                    self.frees.emit_one(top, c, [(self.val[cv], w == 0)])
        self._check_clones()

    def _check_clones(self) -> None:
        """Check transfers (``check_transfer``): the value each retains is the terminator's
        operand; an operand that shares a lost lender with an earlier one (``check_excl``)
        is cloned when the two are one buffer at run time (a pointer comparison), so that
        no two destinations hold one buffer."""
        self._check = {(t, i, k): v for t, i, k, v, _dst in sorted(self.rel.check_transfer)}
        self._check_kept: dict[tuple[int, int], Value] = {}
        self._check_same: dict[tuple[int, int], Value] = {}
        excl: dict[tuple[int, int], list[int]] = defaultdict(list)
        for t, _i, k2, k1 in sorted(self.rel.check_excl):
            excl[(t, k2)].append(k1)
        for (t, k2), k1s in sorted(excl.items()):
            top = self.f.ops[t]
            src = top.operands[k2]
            self.cause = (f"clone of {self.describe(src)} when it is the buffer of another value "
                          "handed over here (a pointer comparison; check_excl)")
            same = None
            for k1 in sorted(k1s):
                ptrs = []
                for x in (top.operands[k1], src):
                    p = memref.aligned_pointer(x)
                    self.insert_before(top, p)
                    ptrs.append(p.result)
                eq = arith.cmpi_eq(*ptrs)
                self.insert_before(top, eq)
                same = eq.result if same is None else self.either(same, eq.result, top)
            then_b, else_b = Block(), Block()
            for c in clone_ops(src, top.loc, self._view_source, self.layouts):
                then_b.append(c)
            then_b.append(scf.yield_([c.result]))
            else_b.append(scf.yield_([src]))
            sel = scf.if_op(same, [src.type], [Region([then_b]), Region([else_b])])
            self.insert_before(top, sel)
            top.set_operand(k2, sel.result)
            self._check_same[(t, k2)] = same
            self.stats.clones += 1
        for (t, _i, k), v in self._check.items():
            self._check_kept[(t, v)] = self.f.ops[t].operands[k]

    def kept_value(self, point: int, vid: int) -> Value:
        """The value a free at ``point`` retains for fact value ``vid``: the operand the
        terminator hands over (after a conditional clone), else the value itself."""
        return self._check_kept.get((point, vid)) or self.val[vid]

    def _check_ownership(self) -> None:
        """The ownership each check transfer hands over, now that the frees are placed:
        the retain results of its lenders' frees, or its conditional clone, or the
        ownership of a fresh buffer the value owned itself."""
        for (t, i, k), ph in self._placeholders.items():
            top = self.f.ops[t]
            parts = list(self.frees.kept_results.get((t, self._check_kept[(t, self._check[(t, i, k)])]), []))
            if (t, k) in self._check_same:
                parts.append(self._check_same[(t, k)])
            u = self._gives.get((t, i, k))
            if u is not None:
                parts.append(self.indicator(u, top))
            own = self.const(top, False)
            for x in parts:
                own = self.either(own, x, top)
            ph.replace_all_uses_with(own)
        for (t, k), u in sorted(self._ret_check.items()):
            top = self.f.ops[t]
            src = top.operands[k]
            self.cause = (f"clone of {self.describe(src)}: returned, and neither owned nor the "
                          "buffer of a lender freed here (run-time check)")
            own = self.indicator(u, top) if self.state(u) == "indicator" else self.const(top, False)
            for x in self.frees.kept_results.get((t, src), []):
                own = self.either(own, x, top)
            then_b, else_b = Block(), Block()
            then_b.append(scf.yield_([src]))
            for c in clone_ops(src, top.loc, self._view_source, self.layouts):
                else_b.append(c)
            else_b.append(scf.yield_([c.result]))
            sel = scf.if_op(own, [src.type], [Region([then_b]), Region([else_b])])
            self.insert_before(top, sel)
            top.set_operand(k, sel.result)
            self.stats.clones += 1

    def _edge_value(self, t: int, i: int, k: int, anchor: Op) -> Value:
        """The ownership travelling with operand ``k`` of edge ``i`` of terminator ``t``."""
        if (t, i, k) in self._cloned:
            return self.const(anchor, True)
        if (t, i, k) in self._check:  # known once the frees are placed (_check_ownership)
            ph = self._placeholders[(t, i, k)] = Op("bufferlog.ownership", [], [I1]).result
            return ph
        if (t, i, k) in self._alt:  # d owns its buffer, or it is u's (alt_transfer)
            dv, uv = self._alt[(t, i, k)]
            return self.either(self.indicator(dv, anchor), self.indicator(uv, anchor), anchor)
        u = self._gives.get((t, i, k))
        return self.indicator(u, anchor) if u is not None else self.const(anchor, False)

    def _wire_slots(self) -> None:
        """Append, in operand order, one i1 operand per slot of each edge and init."""
        f = self.f
        self._gives = {(t, i, k): u for t, i, k, u in sorted(self.rel.edge_gives)}
        self._placeholders: dict[tuple[int, int, int], Value] = {}
        self._alt = {(t, i, k): (dv, uv) for t, i, k, dv, _dst, uv in sorted(self.rel.alt_transfer)}
        per_edge: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
        for t, i, k in sorted(self.rel.slot_edge):
            per_edge[t][i].append(k)
        for t, edges in per_edge.items():
            top = f.ops[t]
            extra = {i: [self._edge_value(t, i, k, top) for k in sorted(ks)]
                     for i, ks in edges.items()}
            self._append_edge_operands(top, extra)
        gives = {(o, k): u for o, k, u in sorted(self.rel.init_gives)}
        per_op: dict[int, list[int]] = defaultdict(list)
        for o, k in sorted(self.rel.slot_init):
            per_op[o].append(k)
        for o, ks in per_op.items():
            op = f.ops[o]
            vals = [self.indicator(gives[(o, k)], op) if (o, k) in gives else self.const(op, False)
                    for k in sorted(ks)]
            op.set_operands(list(op.operands) + vals)

    @staticmethod
    def _append_edge_operands(top: Op, extra: dict[int, list[Value]]) -> None:
        if not top.successors:  # a region terminator: one edge, all operands
            top.set_operands(list(top.operands) + extra.get(0, []))
            return
        ranges = [top.successor_operand_range(i) for i in range(len(top.successors))]
        ops = top.operands
        lead = ops[: min((lo for lo, _ in ranges), default=len(ops))]
        new, sizes = list(lead), []
        for i, (lo, hi) in enumerate(ranges):
            seg = ops[lo:hi] + extra.get(i, [])
            new += seg
            sizes.append(len(seg))
        top.set_operands(new)
        if "operandSegmentSizes" in top.attrs:
            top.attrs["operandSegmentSizes"] = DenseArrayAttr("i32", tuple([len(lead)] + sizes))

    def _clone_before(self, anchor: Op, src: Value) -> Value:
        for c in clone_ops(src, anchor.loc, self._view_source, self.layouts):
            self.insert_before(anchor, c)
        return c.result

    def _view_source(self, op: Op) -> int | None:
        o = self.f.op_id.get(op)
        return self._views.get(o) if o is not None else None

    # ------------------------------------------------------------------ 4. returns
    def _returns(self) -> None:
        """Results the caller cannot own as they are get a clone; when the carrier's
        ownership is known only at run time, the clone sits in the `else` of an scf.if."""
        checked = {(t, k) for t, k, _ in self.rel.return_check}
        self._ret_check = {(t, k): u for t, k, _v, u in self.rel.return_clone if (t, k) in checked}
        for t, k, _v, u in sorted(self.rel.return_clone):
            if (t, k) in self._ret_check:  # decided once the frees are placed
                continue
            top = self.f.ops[t]
            src = top.operands[k]
            self.cause = (f"clone of {self.describe(src)} for result #{k} of the return: "
                          + ("this function owns it on some paths only (known at run time), "
                             if self.state(u) == "indicator" else "this function does not own it "
                             "(an argument, a view, or a buffer another value keeps), ")
                          + "and the caller owns every result it receives")
            if self.state(u) == "indicator":
                then_b, else_b = Block(), Block()
                then_b.append(scf.yield_([src]))
                for c in clone_ops(src, top.loc, self._view_source, self.layouts):
                    else_b.append(c)
                else_b.append(scf.yield_([c.result]))
                sel = scf.if_op(self.ind[u], [src.type], [Region([then_b]), Region([else_b])])
                self.insert_before(top, sel)
                top.set_operand(k, sel.result)
            else:
                top.set_operand(k, self._clone_before(top, src))
            self.stats.clones += 1


def clone_ops(src: Value, loc, view_source=None, layouts=None) -> list[Op]:
    """Ops cloning ``src`` into a fresh buffer of the same type (the last op's result).
    ``bufferization.clone`` lowers by allocating an identity buffer and casting it, which
    cannot give a static non-identity layout (e.g. ``strided<[1], offset: 2>``); such a
    view is cloned through its base: clone the base, replay the view ops on the clone
    (``view_source(op)``: the operand a view op views, from the rules' ``view_source``).
    Freeing the cloned view later frees that whole clone (its allocated pointer).
    Whether an identity buffer casts to the type is a layout question (``layouts``:
    rules/layouts.dl)."""
    if layouts is None:
        layouts = LayoutQuestions()

    def castable(t) -> bool:
        return not isinstance(t, MemRefType) or t.layout is None or layouts.cast_blocked(
            MemRefType(t.shape, t.elem), t) is None

    chain, base = [], src
    while not castable(base.type):
        op = getattr(base, "op", None)
        i = view_source(op) if op is not None and view_source is not None else None
        if i is None:
            chain, base = [], src  # no base to clone through: plain clone, as MLIR would
            break
        chain.append((op, i))
        base = op.operands[i]
    ops = [bufferization.clone(base, loc)]
    for view, i in reversed(chain):
        operands = [ops[-1].result if j == i else x for j, x in enumerate(view.operands)]
        ops.append(Op(view.name, operands, [r.type for r in view.results], dict(view.attrs), loc=loc))
    return ops


def deallocate(module: Module, emit: str = "memref-dealloc", engine: str = "auto",
               rules_dir: str | Path | None = None, free_at_last_use: bool = True,
               reuse: bool = False) -> Stats:
    """Insert the frees; ``free_at_last_use`` frees a buffer right after its last use in
    the block whose end would free it (``rules/plan.dl free_after``); ``reuse`` then lets
    a later allocation take a dead buffer (``backend/plan_reuse.py``)."""
    d = Dealloc(module, emit, engine, rules_dir, free_at_last_use, reuse)
    d.run()
    return d.stats
