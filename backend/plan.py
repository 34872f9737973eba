"""Memory planning around deallocation (docs/memory-planning.md): the stages, each one
switchable (``bufferlog bufferize --no-fold --no-free-at-last-use ...``), and their
figures for ``--stats``.

Before deallocation, on the bufferized IR:
0. results that are an argument's buffer are dropped from private (or, on request, all)
   functions, as mlir-opt's ``-drop-equivalent-buffer-results`` (:mod:`backend.plan_drop`;
   off by default: signatures stay as One-Shot Bufferize makes them);
1. folds mlir-opt's pipeline makes by canonicalizing (:mod:`backend.plan_fold`);
2. a private function's fresh results become out-parameters its callers allocate
   (:mod:`backend.plan_outparams`);
3. an allocation made in both branches of an ``scf.if`` moves before it
   (:mod:`backend.plan_hoist`);
4. allocations that die within one loop iteration move out of the loop, and small ones
   that run once per call go to the stack (:mod:`backend.plan_stack`).
Stages 2-4 decide by rules (rules/placement.dl) and move ops (backend/plan_place.py).
Deallocation then frees each buffer right after its last use in the block whose end
would free it (``rules/plan.dl free_after``, ``free_at_last_use``) instead of at the end.
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.ir import Module

from bufferlog.core.records import record, value_class

from .ir_edit import walk_ops
from .ops import FREE, FUNCTION, HEAP_ALLOC, has
from .plan_drop import drop_equivalent_results
from .plan_fold import fold
from .plan_place import hoist_and_promote, hoist_to_dominator, out_params


@value_class
class PlanOptions:
    """Which planning stages run: folds and frees at the last use by default; hoisting
    and stack promotion on request (like mlir-opt's passes, they change where buffers
    live, not only when they are freed)."""

    fold: bool = True
    free_at_last_use: bool = True
    reuse: bool = True  # a later allocation takes a dead buffer (backend/plan_reuse.py)
    hoist_to_dominator: bool = False  # opt-in, as mlir-opt's --buffer-hoisting
    hoist_out_of_loops: bool = False  # opt-in, as mlir-opt's --buffer-loop-hoisting
    promote_buffers_to_stack: bool = False  # opt-in, as mlir-opt's pass of that name
    max_alloc_size_in_bytes: int = 1024  # mlir-opt's promote-buffers-to-stack default
    out_params: bool = False  # opt-in: changes private functions' signatures
    # opt-in, as mlir-opt's -drop-equivalent-buffer-results: "private" (its meaning) or
    # "all" (public functions too); "none" keeps every result
    drop_equivalent_results: str = "none"

    @classmethod
    def off(cls) -> PlanOptions:
        """No stage: bufferize and deallocate as mlir-opt's pipeline places buffers."""
        return cls(fold=False, free_at_last_use=False, reuse=False)

    @classmethod
    def all(cls) -> PlanOptions:
        """Every stage."""
        return cls(hoist_to_dominator=True, hoist_out_of_loops=True,
                   promote_buffers_to_stack=True, out_params=True,
                   drop_equivalent_results="private")


@record
class PlanStats:
    """What the planning stages did (``bufferize --stats``)."""

    folded_copies: int = 0  # copies of a buffer onto itself removed
    folded_ifs: int = 0  # scf.if on a constant condition replaced by its taken region
    early_frees: int = 0  # frees moved up to right after the last use
    reused: int = 0  # allocations removed: they take a dead buffer of the same type
    hoisted: int = 0  # allocations moved up: out of a loop (one per loop level), or a pair
    # out of the two branches of an scf.if (one per pair)
    stack_promotions: int = 0  # allocations turned into memref.alloca
    out_params: int = 0  # private functions' results turned into caller-allocated arguments
    dropped_results: int = 0  # results that were an argument's buffer, dropped (plan_drop)
    peak_static_bytes: int = 0  # see peak_static_bytes()


def before_dealloc(module: Module, opts: PlanOptions, engine: str = "auto",
                   rules_dir=None) -> PlanStats:
    """The stages that run on bufferized IR before deallocation (where allocations move:
    rules/placement.dl decides, backend/plan_place.py moves)."""
    st = PlanStats()
    st.dropped_results = drop_equivalent_results(module, opts.drop_equivalent_results)
    if opts.fold:
        f = fold(module)
        st.folded_copies, st.folded_ifs = f.self_copies, f.constant_ifs
    if opts.out_params:
        st.out_params = out_params(module, engine, rules_dir)
    if opts.hoist_to_dominator:
        st.hoisted = hoist_to_dominator(module, engine, rules_dir)
    levels, st.stack_promotions = hoist_and_promote(
        module, opts.hoist_out_of_loops, opts.promote_buffers_to_stack,
        opts.max_alloc_size_in_bytes, engine, rules_dir)
    st.hoisted += levels
    return st


_ELT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1, "i16": 2,
              "i32": 4, "i64": 8, "index": 8}


def static_bytes(t) -> int | None:
    """Bytes of a statically shaped memref type (None if dynamic or of unknown width)."""
    if not isinstance(t, T.MemRefType) or any(d is None for d in t.shape):
        return None
    n = _ELT_BYTES.get(str(t.elem))
    if n is None:
        return None
    for d in t.shape:
        n *= d
    return n


def peak_static_bytes(module: Module) -> int:
    """The most heap bytes of statically shaped buffers one function holds at once, in
    the textual order of its ops (``memref.alloc`` adds, ``memref.dealloc`` subtracts the
    allocation's bytes, or those of the value's type when it frees a loop or branch
    result; each nested region counted once): a static estimate to compare the stages
    with, not the run-time peak (benchmarks/bench_memory.py measures that)."""
    best = 0
    for fn in (op for op in module.body.ops if has(op, FUNCTION)):
        live: dict[object, int] = {}
        cur = 0
        for op in walk_ops(fn):
            if has(op, HEAP_ALLOC):
                b = static_bytes(op.results[0].type)
                if b is not None:
                    live[op.results[0]] = b
                    cur += b
                    best = max(best, cur)
            elif has(op, FREE):
                v = op.operands[0]  # the allocation, or a value carrying its ownership
                cur -= live.pop(v) if v in live else (static_bytes(v.type) or 0)
    return best
