"""Static quality figures of memref IR: the one counting function of the product.

:func:`count_figures` counts a bufferized module -- ours (``bufferlog bufferize``) or
mlir-opt's pipeline output, given as text in custom or generic form (mlir-opt's output
with ``memref.extract_aligned_pointer_as_index`` needs ``--mlir-print-op-generic``, which
our parser reads for any op) -- so both sides of a comparison are counted the same way.
``bufferlog batch`` rows and ``benchmarks/bench_quality.py`` use it; the test suite checks
it against ``tests/oracle.py count_ops``, an independent textual count.

Keys (all ints; static counts of ops in the text, not executions):

* ``allocs`` -- ``memref.alloc`` / ``memref.realloc`` of data buffers; ``allocas`` --
  ``memref.alloca``; ``bookkeeping_allocs`` -- the pointer/flag arrays the lowering of
  ``bufferization.dealloc`` allocates to call a ``dealloc_helper`` (an alloc whose
  value, possibly through ``memref.cast``, is an operand of such a call). Bookkeeping
  buffers are counted in neither ``allocs`` nor ``deallocs``.
* ``copies`` -- ``memref.copy`` + ``linalg.copy`` on memrefs; ``bytes_copied`` -- bytes of
  those with a static shape (each op once); ``dynamic_copies`` -- those without.
* ``clones`` -- ``bufferization.clone``.
* ``memref_deallocs`` (data buffers), ``bufferization_deallocs``, ``deallocs`` (their sum);
  ``guarded_deallocs`` -- ``memref.dealloc`` directly inside an ``scf.if``.
* ``dealloc_helper_calls`` -- calls to ``@dealloc_helper*`` (mlir-opt's runtime alias
  check); ``dealloc_helpers`` -- such functions defined.
* ``dealloc_checks`` -- runtime dealloc checks: ``guarded_deallocs`` +
  ``dealloc_helper_calls`` + ``bufferization_deallocs``.

Ops inside ``dealloc_helper*`` functions are machinery, not counted.
"""

from __future__ import annotations

from bufferlog.frontend import types as T

from .ir_edit import walk_ops
from .ops import CALL, FUNCTION, GUARD, HEAP_ALLOC, STACK_ALLOC, has, model
from .ops.memref import strip_casts

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

FIGURES = ("allocs", "allocas", "bookkeeping_allocs", "copies", "bytes_copied",
           "dynamic_copies", "clones", "deallocs", "memref_deallocs", "bufferization_deallocs",
           "guarded_deallocs", "dealloc_helper_calls", "dealloc_helpers", "dealloc_checks")

HELPER_PREFIX = "dealloc_helper"


def _sym(op: Any, key: str) -> str:
    a = op.attrs.get(key)
    for field in ("root", "value"):
        if hasattr(a, field):
            return str(getattr(a, field))
    return str(a) if a is not None else ""


def _is_helper_call(op: Any) -> bool:
    return has(op, CALL) and _sym(op, "callee").startswith(HELPER_PREFIX)


def count_figures(module_or_text: Any, file: str = "<memref>") -> dict[str, int]:
    """The figures (see the module doc) of a memref IR module or of its text."""
    if isinstance(module_or_text, str):
        from bufferlog.frontend.parser import parse

        module = parse(module_or_text, file)
    else:
        module = module_or_text
    c = dict.fromkeys(FIGURES, 0)

    # bookkeeping buffers: allocs handed (through casts) to a dealloc_helper call
    bookkeeping: set[int] = set()
    for op in walk_ops(module):
        if _is_helper_call(op):
            for v in op.operands:
                src = strip_casts(v)
                if getattr(src, "op", None) is not None and (
                        has(src.op, HEAP_ALLOC) or has(src.op, STACK_ALLOC)):
                    bookkeeping.add(id(src))

    # (op, its parent op guards it (scf.if), inside a dealloc_helper function), walked
    # with a stack
    stack = [(module.module_op, False, False)]
    while stack:
        op, guarded, in_helper = stack.pop()
        if has(op, FUNCTION):
            helper = _sym(op, "sym_name").startswith(HELPER_PREFIX)
            c["dealloc_helpers"] += helper
            in_helper = in_helper or helper
        elif not in_helper:
            _count(op, guarded, c, bookkeeping)
        guard = has(op, GUARD)
        stack.extend((sub, guard, in_helper) for r in op.regions for blk in r.blocks for sub in blk.ops)

    c["deallocs"] = c["memref_deallocs"] + c["bufferization_deallocs"]
    c["dealloc_checks"] = (c["guarded_deallocs"] + c["dealloc_helper_calls"]
                           + c["bufferization_deallocs"])
    return c


def _count(op: Any, guarded: bool, c: dict[str, int], bookkeeping: set[int]) -> None:
    """Count ``op`` toward the figure its model names (backend/ops: ``figure``)."""
    fig = getattr(model(op.name), "figure", None)
    if fig in ("allocs", "allocas"):
        if op.results and id(op.results[0]) in bookkeeping:
            c["bookkeeping_allocs"] += 1
        else:
            c[fig] += 1
    elif fig == "copies":
        mems = [v.type for v in op.operands if T.is_memref(v.type)]
        if not mems:  # linalg.copy on tensors
            return
        c["copies"] += 1
        b = T.static_bytes(mems[-1])
        if b is None:
            c["dynamic_copies"] += 1
        else:
            c["bytes_copied"] += b
    elif fig in ("clones", "bufferization_deallocs"):
        c[fig] += 1
    elif fig == "memref_deallocs":
        if op.operands and id(strip_casts(op.operands[0])) in bookkeeping:
            return
        c["memref_deallocs"] += 1
        c["guarded_deallocs"] += guarded
    elif _is_helper_call(op):
        c["dealloc_helper_calls"] += 1
