"""The Python API: parse, analyse, bufferize, deallocate and explain from a script.

Every function takes MLIR text (``str``), a file (``pathlib.Path`` or any path-like) or a
parsed :class:`~bufferlog.frontend.ir.Module`, returns a small result object and raises
the typed errors of :mod:`bufferlog.core.errors`: :class:`ParseError`,
:class:`AnalysisError`, :class:`BufferizeError`, :class:`DeallocError` (all
:class:`UserError`: bad input, with ``.message`` and ``.loc``) or :class:`InternalError`
(a bufferlog bug). Each stage runs under a :func:`bufferlog.core.timing.phase`.

This module and :mod:`bufferlog.engine.explanation` are the only places that read the
analysis' internal state; the CLI and ``batch`` go through the functions here.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bufferlog.core import errors as E
from bufferlog.core.records import asdict, field, record, value_class
from bufferlog.core.source import decode
from bufferlog.core.timing import phase

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

STRATEGIES = ("oneshot", "optimal")
#: the CLI's and batch's ``split_ops``: a module of more ops is processed by parts
SPLIT_OPS = 4000
LAYOUTS = ("identity-layout-map", "fully-dynamic-layout-map", "infer-layout-map")
EMITS = ("memref-dealloc", "bufferization-dealloc")


# ----------------------------------------------------------------------------- results


@value_class
class OperandRef:
    """Operand ``operand`` of the op ``op`` at ``loc`` (``file:line:col``)."""

    op: str
    operand: int
    loc: str


@value_class
class ValueRef:
    """A tensor value: ``value`` (``result 0``, ``bbArg 1``: mlir-opt's words) of the op
    ``op`` at ``loc`` (the op owning the block, for a block argument)."""

    value: str
    op: str
    loc: str

    def __str__(self) -> str:
        return f"{self.value} of {self.op} at {self.loc}"


@value_class
class Conflict:
    """Why an operand is out of place. ``kind``: ``raw`` (a read-after-write conflict: the
    ``write`` would overwrite ``definition``'s buffer before the ``read``),
    ``not_writable`` (the buffer of ``definition`` is read-only) or ``parallel`` (an
    ``scf.forall`` body writes a buffer defined outside it)."""

    kind: str
    definition: ValueRef | None
    write: OperandRef | None = None
    read: OperandRef | None = None


@value_class
class Decision:
    """The in-place decision of one tensor operand. ``bytes``: static size of its buffer
    (None if dynamic); ``conflict``: why it is out of place (None when in place, or when
    the strategy chose it without a conflict)."""

    op: str
    loc: str
    operand: int
    inplace: bool
    bytes: int | None
    conflict: Conflict | None = None


@value_class
class AnalysisFigures:
    """Counts of the in-place analysis (the ``analyze --stats`` / JSON / batch figures)."""

    ops: int  # ops as written (not the top-level module)
    tensor_operands: int  # operand uses of tensor type
    written_operands: int  # tensor operands their op writes (rules/ops.dl)
    inplace_operands: int
    out_of_place_operands: int  # each gets a new buffer (alloc, plus a copy if its op reads it)
    out_of_place_bytes: int | None  # static bytes of those buffers (None if any is dynamic)
    inplace_pct: float | None  # 100 * in place / decided operands
    conflicts: int
    conflicts_by_kind: dict[str, int]


@value_class
class OutputFigures:
    """Static counts in memref IR (``backend/quality.py count_figures``)."""

    copies: int  # memref.copy + linalg.copy on buffers
    bytes_copied: int | None  # None if any copy has a dynamic size
    allocs: int
    deallocs: int
    dealloc_checks: int  # guarded deallocs + dealloc helper calls + bufferization.dealloc
    clones: int
    guarded_deallocs: int
    dealloc_helper_calls: int

    @classmethod
    def of(cls, module: Any) -> OutputFigures:
        from bufferlog.backend.quality import count_figures

        f = count_figures(module)
        names = list(cls._fields)
        vals = {k: f[k] for k in names}
        if f["dynamic_copies"]:
            vals["bytes_copied"] = None
        return cls(**vals)


@value_class
class Copy:
    """One copy in bufferized output, with its cause: the out-of-place ``operand`` of the
    op at ``loc`` and its ``conflict``, or (``operand`` None) the op's own bufferization
    (e.g. ``tensor.insert_slice`` copies its source into the destination's subview)."""

    op: str
    loc: str
    bytes: int | None
    operand: int | None = None
    conflict: Conflict | None = None
    cause: str | None = None  # the cause the output op carries (--mlir-print-debuginfo)

    @property
    def kind(self) -> str:
        """``raw`` / ``not_writable`` / ``parallel`` / ``strategy`` (out of place by the
        strategy's choice), or with no out-of-place operand behind it: ``loop`` (a value a
        loop passes to its next iteration, not in the iteration's own buffer), ``layout``
        (a buffer copied into the layout a signature or op takes) or ``op`` (what the op's
        rewrite itself needs: a slice insertion, padding, a concatenation, ...)."""
        if self.operand is None:
            cause = self.cause or ""
            if " passed on by the " in cause:
                return "loop"
            if cause.startswith(("copy into the layout", "copy into an identity layout",
                                 "copy of the source of tensor.collapse_shape")):
                return "layout"
            return "op"
        return self.conflict.kind if self.conflict else "strategy"

    @property
    def pattern(self) -> tuple[str, str]:
        """(writer, reader): the op pair that costs this copy."""
        from bufferlog.engine.greedy import PARALLEL, RAW

        c = self.conflict
        if self.operand is None or c is None:
            return (self.op, "-")
        if c.kind == RAW and c.write and c.read:
            return (c.write.op, c.read.op)
        if c.kind == PARALLEL and c.write:
            return (c.write.op, "scf.forall")
        return (self.op, "read-only " + (f"{c.definition.value} of {c.definition.op}"
                                         if c.definition else "buffer"))


@value_class
class DeallocStats:
    """What the deallocation step inserted (``dealloc --stats``)."""

    static: int  # unconditional memref.dealloc
    conditional: int  # guarded by an scf.if on an ownership indicator
    runtime: int  # bufferization.dealloc with a runtime alias check
    clones: int
    indicators: int  # i1 ownership indicators added
    folded: int  # conditions Z3 folded to a constant
    early: int = 0  # frees moved up to right after the last use (rules/plan.dl)
    reused: int = 0  # allocations that take a dead buffer instead (rules/plan.dl may_share)
    reasons: tuple[str, ...] = ()  # why each guarded free or runtime check is kept
    notes: tuple = ()  # backend.plan_explain.Note: where each alloc is freed, what it reuses


@record
class Analysis:
    """The in-place analysis of ``module`` (the input IR, unchanged)."""

    module: Any
    strategy: str
    engine: str
    decisions: list[Decision]
    conflicts: list[Conflict]
    figures: AnalysisFigures
    # (facts, analysis, decisions); None for an analysis by parts (bufferlog/parts.py),
    # which keeps only its _annotations (see annotations())
    _raw: tuple | None = field(repr=False, compare=False, default=())
    options: Any = field(repr=False, compare=False, default=None)  # engine.options.OneShotOptions
    _annotations: list = field(repr=False, compare=False, default=())

    def annotated(self, debuginfo: bool = False, generic: bool = False) -> str:
        """The IR annotated like ``mlir-opt --one-shot-bufferize="bufferize-function-
        boundaries test-analysis-only print-conflicts"`` (``debuginfo``: with locations;
        ``generic``: every op in the generic form)."""
        from bufferlog.frontend.printer import print_module

        marks = self._annotations if self._raw is None else self.annotations()[0]
        saved = [(op, op.attrs) for op, _ in marks]
        for op, attrs in marks:
            op.attrs = attrs
        try:
            return print_module(self.module, generic=generic, debuginfo=debuginfo,
                                mlir_opt=not generic)
        finally:
            for op, attrs in saved:
                op.attrs = attrs

    def annotations(self, first: tuple[int, int] = (0, 0)) -> tuple[list[tuple[Any, dict]], tuple[int, int]]:
        """The analysis attributes (engine/annotate.py) as (op, its attributes with them)
        for each op they change, the IR left as it was; the ``C_n`` and ``W_n`` conflict
        tags are numbered from ``first``, and the numbers after the last are returned too."""
        from bufferlog.engine.annotate import annotate, annotate_alias_sets

        facts, an, _ = self._raw
        saved = [dict(op.attrs) for op in facts.ops]
        n = annotate(*self._raw, first)
        if self.options is not None and self.options.dump_alias_sets:
            annotate_alias_sets(facts, an)
        if self.options is not None and not self.options.print_conflicts:
            from bufferlog.core.regex import compile as compile_regex

            tag = compile_regex(r"^[CW]_\d+\[")  # a conflict tag (print-conflicts)
            for op in facts.ops:
                for key in [k for k in op.attrs if tag.match(k)]:
                    del op.attrs[key]
        marks = []
        for op, attrs in zip(facts.ops, saved, strict=True):
            if op.attrs != attrs:
                marks.append((op, op.attrs))
            op.attrs = attrs
        return marks, n

    def to_json(self) -> dict[str, Any]:
        ops: dict[str, dict] = {}
        for d in self.decisions:
            ops.setdefault(d.loc, {"op": d.op, "loc": d.loc, "operands": []})["operands"].append(
                {"operand": d.operand, "inplace": d.inplace, "bytes": d.bytes,
                 "conflict": asdict(d.conflict) if d.conflict else None})
        return {"strategy": self.strategy, "engine": self.engine,
                "figures": asdict(self.figures), "ops": list(ops.values())}


class _MemrefText:
    """The printed memref IR of a result that holds the rewritten ``module``."""

    module: Any

    @property
    def text(self) -> str:
        return self.print()

    def print(self, debuginfo: bool = False, generic: bool = False) -> str:
        """The module's text; ``debuginfo``: every op ends with its location (the input op
        it came from, named by its cause for added allocs, copies and frees); ``generic``:
        every op in the generic form."""
        from bufferlog.frontend.printer import print_module

        return print_module(self.module, generic=generic, debuginfo=debuginfo)


@record
class Bufferized(_MemrefText):
    """Memref IR made from the analysis (``module`` was rewritten in place)."""

    module: Any
    analysis: Analysis
    figures: OutputFigures
    copies: list[Copy]
    dealloc: DeallocStats | None  # None with dealloc=False
    plan: Any = None  # backend.plan.PlanStats: what the memory planning stages did
    # why --strategy optimal's output was given up for oneshot's (the check of the
    # certificate of the output that optimal's output failed), or None
    fallback: str | None = None


@record
class Deallocated(_MemrefText):
    """Memref IR with deallocations (``module`` was rewritten in place)."""

    module: Any
    stats: DeallocStats
    figures: OutputFigures


@record
class Explanation:
    """Why each tensor operand of the selected op(s) is in place or copied: ``ops`` is a
    list of ``{"loc", "op", "text", "operands": [...]}`` (the ``explain --format json``
    shape), ``conflicts`` the number of those operands copied because of a conflict (a
    read-after-write, a read-only buffer, a parallel region), ``certificate_conflicts``
    the size of the rules' re-check of the decisions (0 for a valid result)."""

    engine: str
    conflicts: int
    ops: list[dict]
    certificate_conflicts: int = 0
    output: dict | None = None  # --op FILE:LINE of an output: that op and its cause

    def to_json(self) -> dict[str, Any]:
        out = {"engine": self.engine, "conflicts": self.conflicts,
               "certificate_conflicts": self.certificate_conflicts, "ops": self.ops}
        if self.output is not None:
            out["output"] = self.output
        return out

    def text(self) -> str:
        from bufferlog.engine.explanation import render

        return render(self.to_json())


# --------------------------------------------------------------------------- functions


@contextmanager
def _stage(kind: type[E.UserError]) -> Iterator[None]:
    """Bad input becomes ``kind``; anything else unexpected an :class:`InternalError`."""
    try:
        yield
    except E.UserError as e:
        if isinstance(e, kind):
            raise
        err = kind(e.message, e.loc)
        err.__cause__ = e
        raise err from e
    except (E.BufferlogError, MemoryError):
        raise
    except Exception as e:
        raise E.InternalError(f"{type(e).__name__}: {e}") from e


def read(source: str | os.PathLike) -> tuple[str, str]:
    """(name, text) of MLIR text or of a file (decoded with a located encoding error)."""
    if isinstance(source, str):
        return "<string>", source
    path = Path(source)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise E.UserError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise E.UserError(f"is a directory: {path}") from None
    except OSError as e:
        raise E.UserError(f"cannot read {path}: {e.strerror or e}") from None
    return str(path), decode(data, str(path))


def parse(source: str | os.PathLike, name: str | None = None) -> Any:
    """Parse (and verify) MLIR text or a file into a :class:`Module`. ``name`` is the file
    name used in locations (default: the path, or ``<string>`` for text)."""
    with phase("parse"), _stage(E.ParseError):
        fname, text = read(source)
        from bufferlog.frontend.parser import parse as parse_text

        return parse_text(text, name or fname)


def _module(source: Any) -> Any:
    from bufferlog.frontend.ir import Module

    return source if isinstance(source, Module) else parse(source)


def analyze(source: Any, *, strategy: str = "oneshot", engine: str = "auto",
            rules: str | os.PathLike | None = None, z3_slices: bool | None = None,
            options: Any = None, split_ops: int | None = None) -> Analysis:
    """One-Shot in-place analysis. ``strategy``: ``oneshot`` (mlir-opt's decisions) or
    ``optimal`` (fewest copied bytes, Z3); ``engine``: ``auto`` / ``souffle`` /
    ``embedded``; ``rules``: a directory of rule files adding to or replacing the shipped
    ones; ``z3_slices``: drop conflicts between slices Z3 proves disjoint (default: on for
    ``optimal`` only); ``options``: mlir-opt's One-Shot options, a
    ``bufferlog.OneShotOptions`` (default: bufferlog's defaults) or an option string such
    as ``"bufferize-function-boundaries analysis-heuristic=top-down"``, which means what
    it means to mlir-opt (what it leaves out takes mlir-opt's default); ``split_ops``: a module of more ops than this is
    analysed by parts (functions with everything they call or are called by, frontend/
    split.py), one part's engine state alive at a time; such an analysis cannot be
    explained or reused by :func:`bufferize` (None: the whole module at once)."""
    module = _module(source)
    where = split(module, split_ops)
    if where:
        from bufferlog.parts import analyze_by_parts

        return analyze_by_parts(module, where, strategy=strategy, engine=engine,
                                rules=rules, z3_slices=z3_slices, options=options)
    with phase("analysis"), _stage(E.AnalysisError):
        from bufferlog.engine.oneshot import analyze_module
        from bufferlog.engine.run import resolve_engine

        if strategy not in STRATEGIES:
            raise E.AnalysisError(f"unknown strategy '{strategy}' (choose from {', '.join(STRATEGIES)})")
        from bufferlog.engine.options import OneShotOptions, parse_pass_options

        if isinstance(options, str):  # mlir-opt's meaning; an analysis is test-analysis-only
            from bufferlog.core.records import replace

            options = parse_pass_options(options, replace(OneShotOptions.mlir_opt(),
                                                          test_analysis_only=True))
        options = options or OneShotOptions()
        rules_dir = str(rules) if rules is not None else None
        raw = analyze_module(module, strategy=strategy, engine=engine, rules_dir=rules_dir,
                             z3_slices=z3_slices, options=options)
        if not options.allow_return_allocs_from_loops:  # mlir-opt's default
            from bufferlog.engine.loop_yields import check_loop_yields

            check_loop_yields(raw[0], raw[1])
        a = _analysis(module, raw, strategy, resolve_engine(engine))
        a.options = options
        return a


def _analysis(module: Any, raw: tuple, strategy: str, engine: str) -> Analysis:
    from bufferlog.engine.oneshot import operand_annotations
    from bufferlog.frontend import types as T

    facts, an, dec = raw

    def value(v: int | None) -> ValueRef | None:
        if v is None:
            return None
        val = facts.values[v]
        if hasattr(val, "op"):
            return ValueRef(f"result {val.index}", val.op.name, str(val.op.loc))
        owner = val.block.parent_op
        return ValueRef(f"bbArg {val.index}", owner.name, str(owner.loc))

    def ref(u: tuple[int, int] | None) -> OperandRef | None:
        return None if u is None else OperandRef(facts.ops[u[0]].name, u[1], str(facts.ops[u[0]].loc))

    def conflict(c: Any) -> Conflict | None:
        if c is None:
            return None
        return Conflict(c.kind, value(c.definition), ref(c.write), ref(c.read))

    decisions = []
    for o, vals in operand_annotations(an, dec).items():
        op = facts.ops[o]
        for i, v in enumerate(vals):
            if v != "none":
                c = None if v == "true" else conflict(dec.conflicts.get((o, i)))
                decisions.append(Decision(op.name, str(op.loc), i, v == "true",
                                          T.static_bytes(op.operands[i].type), c))
    conflicts = [conflict(dec.conflicts[u]) for u in dec.order if u in dec.conflicts]
    top = module.module_op
    ops = [op for op in module.walk() if op is not top]
    out = [d for d in decisions if not d.inplace]
    sizes = [d.bytes for d in out]
    figures = AnalysisFigures(
        ops=len(ops),
        tensor_operands=sum(T.is_tensor(v.type) for op in ops for v in op.operands),
        written_operands=len(an.writes & set(an.tuse)),
        inplace_operands=len(decisions) - len(out),
        out_of_place_operands=len(out),
        out_of_place_bytes=None if None in sizes else sum(sizes),
        inplace_pct=round(100.0 * (len(decisions) - len(out)) / len(decisions), 2) if decisions else None,
        conflicts=len(conflicts),
        conflicts_by_kind=dict(sorted(Counter(c.kind for c in conflicts).items())))
    return Analysis(module, strategy, engine, decisions, conflicts, figures, raw)


def bufferize(source: Any, *, strategy: str = "oneshot", dealloc: bool = True,
              layout: str = "identity-layout-map", engine: str = "auto",
              rules: str | os.PathLike | None = None,
              analysis: Analysis | None = None, options: Any = None,
              plan: Any = None, split_ops: int | None = None,
              check_output: bool = True) -> Bufferized:
    """Tensor IR to memref IR from the in-place decisions (an ``analysis`` already made
    on this module is reused), then deallocations unless ``dealloc=False``. ``layout``:
    the memref layout of function arguments and results (``identity-layout-map``,
    ``fully-dynamic-layout-map`` or ``infer-layout-map``). ``plan``: the memory planning stages
    (``backend.plan.PlanOptions``; all by default). ``split_ops``: as for :func:`analyze`
    (a module of more ops is bufferized by parts, each analysed, rewritten and freed of
    its engine state before the next). ``check_output``: run the certificate of the
    output (a violation raises :class:`InternalError`). The module is rewritten in place."""
    if strategy == "optimal" and check_output and analysis is None:
        module = _module(source)
        text = getattr(module.source_lines, "text", None)
        if text is not None:
            from bufferlog.backend.certify_output import OutputCertificateError

            args = dict(dealloc=dealloc, layout=layout, engine=engine, rules=rules,
                        options=options, plan=plan, split_ops=split_ops)
            try:
                return _bufferize(module, strategy=strategy, **args)
            except OutputCertificateError as e:
                # optimal's slice proofs the certificate could not check again (it knows
                # static boxes only): oneshot's decisions, certified in turn
                if getattr(e, "facts_dir", None) is not None:
                    import shutil

                    shutil.rmtree(e.facts_dir, ignore_errors=True)
                b = _bufferize(parse(text, module.file), strategy="oneshot", **args)
                b.fallback = str(e).split("; its proof:")[0]
                return b
    return _bufferize(source, strategy=strategy, dealloc=dealloc, layout=layout, engine=engine,
                      rules=rules, analysis=analysis, options=options, plan=plan,
                      split_ops=split_ops, check_output=check_output)


def _bufferize(source: Any, *, strategy: str, dealloc: bool, layout: str, engine: str,
               rules: Any, analysis: Analysis | None = None, options: Any = None,
               plan: Any = None, split_ops: int | None = None,
               check_output: bool = True) -> Bufferized:
    from bufferlog.backend.plan import PlanOptions

    plan = plan or PlanOptions()
    if isinstance(options, str):
        from bufferlog.engine.options import parse_pass_options

        with _stage(E.BufferizeError):
            options = parse_pass_options(options)
    if layout not in LAYOUTS:
        raise E.BufferizeError(f"function-boundary-type-conversion: '{layout}' is unknown "
                               f"(choose from {', '.join(LAYOUTS)})")
    if analysis is None and split_ops:
        source = _module(source)
        where = split(source, split_ops)
        if where:
            from bufferlog.parts import bufferize_by_parts

            return bufferize_by_parts(source, where, strategy=strategy, dealloc=dealloc,
                                      layout=layout, engine=engine, rules=rules,
                                      options=options, plan=plan, check_output=check_output)
    a = analysis or analyze(source, strategy=strategy, engine=engine, rules=rules,
                            options=options)
    _whole(a)
    module = a.module
    source_ops = {str(op.loc): op.name for op in module.walk()}
    planned, stats = _rewrite(a, layout, engine, rules, plan, dealloc, check_output)
    return _bufferized(module, a, source_ops, planned, stats)


def split(module: Any, split_ops: int | None) -> list[list[int]] | None:
    """The parts ``module`` is processed by with ``split_ops`` (top-level op indices,
    frontend/split.py), None for the whole module."""
    if not split_ops:
        return None
    from bufferlog.frontend.split import parts

    return parts(module, split_ops)


def _whole(a: Analysis) -> None:
    if a._raw is None:
        raise E.UserError("an analysis made by parts (split_ops) keeps no engine state: "
                          "analyse the whole module to explain or bufferize from it")


def _rewrite(a: Analysis, layout: str, engine: str, rules: Any, plan: Any,
             dealloc: bool, check_output: bool = True) -> tuple[Any, DeallocStats | None]:
    """Rewrite ``a.module`` from the analysis ``a``: bufferize, plan, deallocate."""
    from bufferlog.backend.plan import PlanOptions, before_dealloc

    module = a.module
    with phase("bufferize"), _stage(E.BufferizeError):
        from bufferlog.backend.bufferize import bufferize as rewrite

        rewrite(module, a.strategy, False, layout, engine,
                rules_dir=str(rules) if rules is not None else None, analysis=a._raw,
                options=a.options, plan=PlanOptions.off())
        planned = before_dealloc(module, plan, engine, rules)  # memory planning (backend/plan.py)
    stats = None
    if dealloc:
        kept = next((op for op in module.walk() if _on_tensors(op) and op.name not in
                     ("bufferization.to_tensor", "bufferization.to_buffer")), None)
        if kept is not None:  # left by allow-unknown-ops / bufferize-function-boundaries=0
            raise E.DeallocError(f"'{kept.name}' op stays on tensors: deallocation of partly "
                                 "bufferized IR is not supported (use --no-dealloc)", kept.loc)
        stats = _deallocate(module, "memref-dealloc", engine, rules, plan.free_at_last_use,
                            plan.reuse)
    if check_output:
        with phase("output certificate"):
            from bufferlog.backend.certify_output import certify_output

            certify_output(module, engine, rules, checks="all" if dealloc else "memory")
    return planned, stats


def _bufferized(module: Any, a: Analysis, source_ops: dict[str, str], planned: Any,
                stats: DeallocStats | None) -> Bufferized:
    """The result of bufferizing ``module`` (rewritten from ``a``)."""
    from bufferlog.backend.plan import peak_static_bytes

    with phase("figures"):
        planned.peak_static_bytes = peak_static_bytes(module)
        planned.early_frees = stats.early if stats is not None else 0
        planned.reused = stats.reused if stats is not None else 0
        return Bufferized(module, a, OutputFigures.of(module), _copies(module, a, source_ops),
                          stats, planned)


def _on_tensors(op: Any) -> bool:
    from bufferlog.frontend import types as T

    return any(T.is_tensor(v.type) for v in [*op.operands, *op.results])


def _deallocate(module: Any, emit: str, engine: str, rules: Any = None,
                free_at_last_use: bool = True, reuse: bool = False) -> DeallocStats:
    with phase("dealloc"), _stage(E.DeallocError):
        from bufferlog.backend.dealloc import deallocate as insert

        if emit not in EMITS:
            raise E.DeallocError(f"unknown --emit '{emit}' (choose from {', '.join(EMITS)})")
        st = insert(module, emit, engine, rules, free_at_last_use, reuse)
        return DeallocStats(**{k: getattr(st, k) for k in DeallocStats._fields
                               if k not in ("reasons", "notes")},
                            reasons=tuple(st.reasons), notes=tuple(st.notes))


def deallocate(source: Any, *, emit: str = "memref-dealloc", engine: str = "auto",
               rules: Any = None, check_output: bool = True) -> Deallocated:
    """Ownership-based deallocation of memref IR. ``emit``: ``memref-dealloc`` (plain or
    ``scf.if``-guarded ``memref.dealloc``) or ``bufferization-dealloc``; ``rules``: a
    directory of rule files overlaying the shipped ones. The module is rewritten in place."""
    module = _module(source)
    if check_output:
        for op in module.walk():
            op.origin = op  # every op so far is the input's own
    stats = _deallocate(module, emit, engine, rules)
    if check_output:
        with phase("output certificate"):
            from bufferlog.backend.certify_output import certify_output

            certify_output(module, engine, rules, checks="frees")
    return Deallocated(module, stats, OutputFigures.of(module))


def _copies(module: Any, a: Analysis, source_ops: dict[str, str]) -> list[Copy]:
    """Every copy counted by :class:`OutputFigures` with its cause: the bufferizer gives
    each op it emits the location of the tensor op it rewrites, so a copy at the location
    of an op with out-of-place operands belongs to those operands (in operand order, as
    the bufferizer handles them); any other copy is the op's own."""
    from bufferlog.backend.quality import HELPER_PREFIX
    from bufferlog.frontend import types as T

    pending: dict[str, list[Decision]] = {}
    for d in a.decisions:
        if not d.inplace:
            pending.setdefault(d.loc, []).append(d)
    out: list[Copy] = []
    for f in module.body.ops:
        if str(getattr(f.attrs.get("sym_name"), "value", "")).startswith(HELPER_PREFIX):
            continue
        for op in f.walk():
            if op.name not in ("memref.copy", "linalg.copy"):
                continue
            mems = [v.type for v in op.operands if T.is_memref(v.type)]
            if not mems:
                continue
            loc = str(op.loc)
            d = pending[loc].pop(0) if pending.get(loc) and op.cause and op.cause.startswith(
                "out-of-place ") else None
            out.append(Copy(source_ops.get(loc, op.name), loc, T.static_bytes(mems[-1]),
                            d.operand if d else None, d.conflict if d else None, op.cause))
    return out


@record
class CopyListing:
    """Every copy of a bufferized file with its cause (``explain FILE`` without ``--op``,
    ``batch``'s ``.explain.txt``): ``copies`` and their bytes are the file's ``--stats``
    figures; ``uncopied`` are the out-of-place operands that got a new buffer and no copy
    (their old contents are not read)."""

    file: str
    copies: list[Copy]
    figures: Any  # AnalysisFigures
    uncopied: list[Decision]
    lines: tuple[str, ...] = ()  # the input's lines

    def to_json(self) -> dict[str, Any]:
        total = [c.bytes for c in self.copies]
        return {"file": self.file, "copies": len(self.copies),
                "bytes_copied": None if None in total else sum(total),
                "list": [{"loc": c.loc, "op": c.op, "text": self._text(c.loc), "bytes": c.bytes,
                          "operand": c.operand, "kind": c.kind, "cause": c.cause,
                          "conflict": asdict(c.conflict) if c.conflict else None}
                         for c in self.copies],
                "out_of_place_without_copy": [
                    {"loc": d.loc, "op": d.op, "operand": d.operand,
                     "conflict": asdict(d.conflict) if d.conflict else None}
                    for d in self.uncopied]}

    def _text(self, loc: str) -> str:
        try:
            line = int(loc.rsplit(":", 2)[1])
        except (IndexError, ValueError):
            return ""
        return self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""

    def text(self) -> str:
        total = [c.bytes for c in self.copies]
        nbytes = "dynamic" if None in total else f"{sum(total)} bytes"
        f = self.figures
        oop = "dynamic" if f.out_of_place_bytes is None else f.out_of_place_bytes
        lines = [f"{self.file}: {len(self.copies)} copies in the bufferized output ({nbytes}); "
                 f"{f.out_of_place_operands} out-of-place tensor operands ({oop} bytes), "
                 f"{f.conflicts} conflicts"]
        for k, c in enumerate(self.copies, 1):
            size = "dynamic size" if c.bytes is None else f"{c.bytes} bytes"
            lines.append(f"copy {k}: {c.loc}: {c.op}, {size}")
            text = self._text(c.loc)
            if text:
                lines.append(f"  {text}")
            lines.append(f"  cause: {c.cause or 'the input wrote it'}")
        if self.uncopied:
            lines.append("out of place without a copy (a new buffer; the old contents are not read):")
            for d in self.uncopied:
                why = _reason_words(d.conflict)
                lines.append(f"  {d.loc}: operand #{d.operand} of {d.op}: {why}")
        return "\n".join(lines) + "\n"


def _reason_words(c: Conflict | None) -> str:
    from bufferlog.engine.greedy import FORCED, NOT_WRITABLE, PARALLEL, RAW

    if c is None:
        return "chosen by the strategy (in place would not conflict)"
    return {RAW: "read-after-write conflict if in place",
            NOT_WRITABLE: "in place would write a read-only buffer",
            PARALLEL: "in place would write, inside an scf.forall body, a buffer defined "
                      "outside it that is read",
            FORCED: "forced by a must_copy rule"}.get(c.kind, c.kind)


def copy_listing(b: Any, file: str) -> CopyListing:
    """The :class:`CopyListing` of a :class:`Bufferized` result."""
    a = b.analysis
    copied = {(c.loc, c.operand) for c in b.copies if c.operand is not None}
    rest = [d for d in a.decisions if not d.inplace and (d.loc, d.operand) not in copied]
    return CopyListing(file, list(b.copies), a.figures, rest,
                       tuple(getattr(a.module, "source_lines", None) or ()))


def explain_copies(source: Any, *, strategy: str = "oneshot", engine: str = "auto",
                   rules: str | os.PathLike | None = None, options: Any = None,
                   plan: Any = None) -> CopyListing:
    """Bufferize ``source`` and list every copy of the output with its cause."""
    module = _module(source)
    b = bufferize(module, strategy=strategy, engine=engine, rules=rules, options=options,
                  plan=plan)
    file = next((str(op.loc.file) for op in module.walk() if op.loc.line), "-")
    return copy_listing(b, file)


def explain(source: Any, op: int | str, *, strategy: str = "oneshot", engine: str = "auto",
            rules: str | os.PathLike | None = None, depth: int = 4,
            proof: bool = False) -> Explanation:
    """Why each tensor operand of the op(s) on source line ``op`` (or defining ``%name``)
    is in place or copied: the conflict with its locations, a user's rule that decided
    it; ``proof``: also the engine's proof trees (``depth`` levels) and why-not answers.
    ``source`` may also be an :class:`Analysis` (its decisions are explained)."""
    a = source if isinstance(source, Analysis) else analyze(
        source, strategy=strategy, engine=engine, rules=rules)
    _whole(a)
    with phase("explain"), _stage(E.AnalysisError):
        from bufferlog.engine.explanation import explain as explain_ops

        facts, an, dec = a._raw
        if a.strategy == "optimal":
            an.run(fixed=dec.inplace)  # the analysis state of the chosen decisions
        res = explain_ops(facts, an, dec, str(op), engine, str(rules) if rules else None,
                          depth, getattr(a.module, "source_lines", None), proof)
        return Explanation(res["engine"], res["conflicts"], res["ops"], res["certificate_conflicts"],
                           res.get("output"))


def explain_alloc(source: Any, target: str, *, strategy: str = "oneshot", engine: str = "auto",
                  rules: str | os.PathLike | None = None, options: Any = None,
                  plan: Any = None) -> list[dict]:
    """Where each ``memref.alloc`` made for source line ``target`` (a line, ``FILE:LINE[:COL]``
    of the input, or ``FILE:LINE`` of a ``bufferize --mlir-print-debuginfo`` output) is
    freed and what buffer it reuses, each with the rule that decided it: a list of
    ``{"loc", "text", "notes": [{"text", "relation", "rule", "site"}]}``, one per line of
    the input that made allocations (the ``explain --alloc --format json`` shape)."""
    from pathlib import Path

    from bufferlog.backend.dealloc_rules import load
    from bufferlog.engine.explanation import _FILE_LINE, output_position

    module = _module(source)
    b = bufferize(module, strategy=strategy, engine=engine, rules=rules, options=options,
                  plan=plan)
    notes = b.dealloc.notes if b.dealloc is not None else ()
    file = next((str(n.alloc.loc.file) for n in notes), "-")
    m = _FILE_LINE.match(target)
    col = None
    if m is None:
        try:
            line = int(target)
        except ValueError:
            raise E.UserError(f"--alloc takes a line or FILE:LINE[:COL], got '{target}'") from None
    else:
        line, col = int(m["line"]), int(m["col"]) if m["col"] else None
        if m["file"] != file:
            line, col = output_position(m["file"], line)
    picked = [n for n in notes if n.alloc.loc.line == line and (
        col is None or col in (n.alloc.loc.col, getattr(n.alloc.name_loc, "col", None)))]
    if not picked:
        raise E.UserError(f"no memref.alloc made for line {line}", f"{file}:{line}:{col or 1}")
    prog = load(rules)

    def site(rel: str, rid: str) -> str:
        r = next((r for r in prog.rules_for(rel) if r.rid == rid), None) if rel else None
        return "" if r is None else f"{Path(r.loc.file).parent.name}/{Path(r.loc.file).name}:{r.loc.line}"

    lines = getattr(module, "source_lines", None) or []
    out: dict[str, dict] = {}
    for n in picked:
        loc = n.alloc.loc
        item = out.setdefault(str(loc), {
            "loc": str(loc), "notes": [],
            "text": lines[loc.line - 1].strip() if 0 < loc.line <= len(lines) else ""})
        item["notes"].append({"text": n.text, "relation": n.relation, "rule": n.rule,
                              "site": site(n.relation, n.rule)})
    return list(out.values())


def render_alloc_explanation(items: list[dict]) -> str:
    """The text form of :func:`explain_alloc`."""
    out = []
    for it in items:
        out.append(f"{it['loc']}: {it['text']}")
        for n in it["notes"]:
            why = f"   [{n['relation']}.{n['rule']} {n['site']}]" if n["relation"] else ""
            out.append(f"  memref.alloc: {n['text']}{why}")
    return "\n".join(out) + "\n"


def figures_row(a: Analysis, b: Bufferized | Deallocated | None = None) -> dict[str, Any]:
    """The flat figures of a file (the ``batch`` row and ``--stats`` keys)."""
    row = asdict(a.figures)
    if b is not None:
        row.update(asdict(b.figures))
    return row
