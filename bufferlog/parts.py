"""Analysis and bufferization of a large module by parts (``--split-ops``): each part
(frontend/split.py: functions with everything they call or are called by) is moved into
a module of its own, analysed (and rewritten) with the whole-module functions of
bufferlog/api.py, and put back; its facts and engine state are freed before the next
part starts. Only the IR and the results are kept for the whole module.

The output is the whole-module run's, byte for byte (tests/test_parts.py compares them):
no decision, conflict or deallocation depends on a function outside the caller/callee
closure a part holds. Two things are stitched afterwards: the decisions are put back in
program order, and the globals that tensor constants became (``__constant_<n>``, one per
value and type, numbered in the order the rewrite meets them) are merged across parts
and renumbered. In the analysis' annotated IR, conflicts are numbered part after part.

A function that nothing in its part refers to and that holds no tensor (for
``bufferize``: no tensor and no memref) anywhere, signature included, is left out of its
part: no rule, decision or rewrite concerns it, and it stays as it is. Many small
modules of scalar helpers cost no engine run at all.
"""

from __future__ import annotations

from collections import Counter

from bufferlog.backend.bufferize import functions
from bufferlog.backend.ir_edit import walk_ops
from bufferlog.frontend import attrs as A
from bufferlog.frontend.split import put_back, submodule

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any


def _decision_tops(a, where: list[int]) -> list[int]:
    """The top-level index (in the whole module) of each of ``a.decisions``."""
    from bufferlog.engine.oneshot import operand_annotations

    facts, an, dec = a._raw
    top = {}
    for i, op in zip(where, a.module.body.ops, strict=True):
        for o in op.walk():
            top[o] = i
    out = []
    for o, vals in operand_annotations(an, dec).items():
        out += [top[facts.ops[o]]] * sum(v != "none" for v in vals)
    if len(out) != len(a.decisions):
        from bufferlog.core import InternalError

        raise InternalError("decisions and operand annotations differ")
    return out


class _Merged:
    """What the parts' analyses add up to."""

    def __init__(self) -> None:
        self.decisions: list[tuple[int, int, Any]] = []  # (top-level index, seq, Decision)
        self.conflicts: list = []
        self.figures: list = []
        self.annotations: list = []
        self.next_conflict = (0, 0)  # the next C_n and W_n tags
        self.skipped_ops = 0  # ops of the functions left out (_untouched)

    def add(self, a, where: list[int], annotate: bool) -> None:
        tops = _decision_tops(a, where)
        n = len(self.decisions)
        self.decisions += [(t, n + k, d) for k, (t, d) in enumerate(zip(tops, a.decisions, strict=True))]
        self.conflicts += a.conflicts
        self.figures.append(a.figures)
        if annotate:
            marks, self.next_conflict = a.annotations(self.next_conflict)
            self.annotations += marks

    def analysis(self, module, strategy: str, engine: str, options):
        from bufferlog.api import Analysis, AnalysisFigures

        decisions = [d for _, _, d in sorted(self.decisions, key=lambda x: x[:2])]
        fs = self.figures
        inplace = sum(f.inplace_operands for f in fs)
        out = sum(f.out_of_place_operands for f in fs)
        sizes = [f.out_of_place_bytes for f in fs]
        kinds: Counter = Counter()
        for f in fs:
            kinds.update(f.conflicts_by_kind)
        figures = AnalysisFigures(
            ops=self.skipped_ops + sum(f.ops for f in fs), tensor_operands=sum(f.tensor_operands for f in fs),
            written_operands=sum(f.written_operands for f in fs), inplace_operands=inplace,
            out_of_place_operands=out,
            out_of_place_bytes=None if None in sizes else sum(sizes),
            inplace_pct=round(100.0 * inplace / (inplace + out), 2) if inplace + out else None,
            conflicts=sum(f.conflicts for f in fs), conflicts_by_kind=dict(sorted(kinds.items())))
        return Analysis(module, strategy, engine, decisions, self.conflicts, figures, None,
                        options, self.annotations)


def _untouched(ops: list, where: list[int], memrefs: bool) -> set[int]:
    """The indices in ``where`` of the func.func ops that no op of the part refers to and
    that hold no tensor value or type (``memrefs``: and no memref) anywhere: the
    analysis has nothing to decide in them, the rewrite nothing to change."""
    from bufferlog.frontend import types as T
    from bufferlog.frontend.split import _refs

    shaped = (lambda t: T.is_tensor(t) or T.is_memref(t)) if memrefs else T.is_tensor
    named: set = set()
    candidates = []
    for i in where:
        op = ops[i]
        sym = op.attrs.get("sym_name") if op.name == "func.func" else None
        free = isinstance(sym, A.StringAttr)
        for o in op.walk():
            for a in o.attrs.values():
                if isinstance(a, A.SymbolRefAttr | A.ArrayAttr | A.DictAttr | A.OpaqueAttr):
                    named.update(_refs(a))
            if free and (any(shaped(v.type) for v in o.results) or any(
                    shaped(b.type) for r in o.regions for blk in r.blocks for b in blk.args)):
                free = False
        if free:
            ft = op.attrs.get("function_type")
            ft = getattr(ft, "type", None)
            if ft is not None and not any(map(shaped, (*ft.inputs, *ft.results))):
                candidates.append((i, sym.value))
    if None in named:  # an opaque attribute may name anything: leave every function in
        return set()
    return {i for i, sym in candidates if sym not in named}


def _ops_in(ops: list, idx) -> int:
    """How many ops the top-level ops ``idx`` hold (themselves included)."""
    return sum(1 for i in idx for _ in ops[i].walk())


def _free(a):
    """Drop a part's facts and engine state and collect them now (the commands run with
    Python's cyclic collector off, bufferlog/cli.py). Only the objects made since the
    last collection are scanned: the part's, not the whole module's IR (:func:`_frozen`)."""
    import gc

    a._raw = None
    gc.collect(0)
    return a


class _frozen:
    """While the parts run, the objects made before (the module's IR, the parser's
    tables) sit in the collector's permanent generation: each part's collection scans
    what that part made, not them (with the collector off, the first collection would
    otherwise scan every object made since start-up)."""

    def __enter__(self):
        import gc

        gc.freeze()
        return self

    def __exit__(self, *exc):
        import gc

        gc.unfreeze()


def _empty(module, ops: list, strategy, engine, rules, z3_slices, options):
    """The analysis of a part holding none of the module's ops (every function was left
    out): its strategy, engine and options for the whole module's result."""
    from bufferlog.api import analyze

    sub = submodule(module, [])
    return _free(analyze(sub, strategy=strategy, engine=engine, rules=rules, z3_slices=z3_slices,
                         options=options))


def analyze_by_parts(module, split: list[list[int]], *, strategy: str, engine: str,
                     rules: Any, z3_slices: Any, options: Any):
    """:func:`bufferlog.api.analyze` of ``module`` by the parts ``split`` (top-level op
    indices, frontend/split.py ``parts``)."""
    from bufferlog.api import analyze

    ops = list(module.body.ops)
    merged = _Merged()
    a = None
    with _frozen():
        for where in split:
            skip = _untouched(ops, where, memrefs=False)
            merged.skipped_ops += _ops_in(ops, skip)
            where = [i for i in where if i not in skip]
            if not where:
                continue
            sub = submodule(module, [ops[i] for i in where])
            a = analyze(sub, strategy=strategy, engine=engine, rules=rules, z3_slices=z3_slices,
                        options=options)
            merged.add(a, where, annotate=True)
            put_back(module, where, sub)
            a = _free(a)
    if a is None:  # nothing to analyse in any part: the analysis of an empty part
        a = _empty(module, ops, strategy, engine, rules, z3_slices, options)
    return merged.analysis(module, a.strategy, a.engine, a.options)


def bufferize_by_parts(module, split: list[list[int]], *, strategy: str, dealloc: bool,
                       layout: str, engine: str, rules: Any, options: Any, plan: Any,
                       check_output: bool = True):
    """:func:`bufferlog.api.bufferize` of ``module`` by the parts ``split``."""
    from bufferlog.api import DeallocStats, _bufferized, _rewrite, analyze
    from bufferlog.backend.plan import PlanStats

    ops = list(module.body.ops)
    source_ops = {str(op.loc): op.name for op in module.walk()}
    merged = _Merged()
    planned = PlanStats()
    stats = [] if dealloc else None
    made: list = []  # (global, part, its readers) for each global a part gained
    a = None
    with _frozen():
        for p, where in enumerate(split):
            skip = _untouched(ops, where, memrefs=True)
            merged.skipped_ops += _ops_in(ops, skip)
            where = [i for i in where if i not in skip]
            if not where:
                continue
            sub = submodule(module, [ops[i] for i in where])
            a = analyze(sub, strategy=strategy, engine=engine, rules=rules, options=options)
            merged.add(a, where, annotate=False)
            done, st = _rewrite(a, layout, engine, rules, plan, dealloc, check_output)
            for k in PlanStats._fields:
                setattr(planned, k, getattr(planned, k) + getattr(done, k))
            if st is not None:
                stats.append(st)
            new = put_back(module, where, sub)
            if new:
                readers: dict[str, list] = {g.attrs["sym_name"].value: [] for g in new}
                for i in where:
                    for op in walk_ops(ops[i]):
                        if op.name == "memref.get_global" and op.attrs["name"].root in readers:
                            readers[op.attrs["name"].root].append(op)
                made += [(g, p, readers[g.attrs["sym_name"].value]) for g in new]
            a = _free(a)
    if a is None:
        a = _empty(module, ops, strategy, engine, rules, None, options)
    if made:
        _merge_globals(module, made)
    total = None
    if stats is not None:
        total = DeallocStats(**{k: sum(getattr(s, k) for s in stats) for k in DeallocStats._fields
                                if k not in ("reasons", "notes")},
                             reasons=tuple(r for s in stats for r in s.reasons),
                             notes=tuple(n for s in stats for n in s.notes))
    whole = merged.analysis(module, a.strategy, a.engine, a.options)
    return _bufferized(module, whole, source_ops, planned, total)


def _merge_globals(module, made: list) -> None:
    """Put the parts' new globals at the head of the module as one rewrite of the whole
    module would have made them: one per (value, type), numbered ``__constant_<n>`` in
    the order the rewrite creates them (functions in its order, backend/bufferize.py
    ``Bufferizer.func``), each made where the first constant that needed it is."""
    rank = {id(f): k for k, f in enumerate(_rewrite_order(module))}
    made = sorted(((rank[id(g.made_in)], p, s, g, readers) for s, (g, p, readers) in enumerate(made)),
                  key=lambda x: x[:3])
    first: dict[tuple[str, str], Any] = {}
    kept = []
    for _, _, _, g, readers in made:
        k = (str(g.attrs["initial_value"]), str(g.attrs["type"]))
        if k not in first:
            first[k] = g
            g.attrs["sym_name"] = A.StringAttr(f"__constant_{len(kept)}")
            kept.append(g)
        name = A.SymbolRefAttr(first[k].attrs["sym_name"].value)
        for op in readers:
            op.attrs["name"] = name
    for g in kept:
        g.parent = module.body
    module.body.ops[:0] = kept


def _rewrite_order(module) -> list:
    """The functions in the order the rewrite (backend/bufferize.py ``Bufferizer.run``)
    rewrites them: in order, each after the callees not rewritten yet, as it reaches them."""
    funcs = {f.attrs["sym_name"].value: f for f in functions(module)}
    seen: set[int] = set()
    out: list = []
    for f in functions(module):
        stack = [(f, False)]
        while stack:
            g, expanded = stack.pop()
            if expanded:
                out.append(g)
                continue
            if id(g) in seen:
                continue
            seen.add(id(g))
            stack.append((g, True))
            callees = [funcs.get(getattr(op.attrs.get("callee"), "root", None))
                       for op in walk_ops(g) if op.name == "func.call"]
            stack.extend((c, False) for c in reversed(callees) if c is not None)
    return out
