"""mlir-opt's ``-expand-realloc``: every ``memref.realloc`` becomes the ops it stands for.

``%b = memref.realloc %a(%n) : memref<KxT> to memref<?xT>`` grows the buffer only when
the new size is larger: an ``scf.if`` on ``old size < new size`` allocates the new buffer,
copies the old contents into its first elements (through a ``memref.subview``) and, with
``emit_deallocs`` (mlir-opt's default), frees the old buffer; otherwise it reinterprets
the old buffer at the new size. The ops are those mlir-opt writes, in its order; the
lowering is the op's own (``backend/ops/memref.py``, ``expand_realloc``), this pass finds
the ops with the ``REALLOC`` trait.
"""

from __future__ import annotations

from bufferlog.frontend.ir import Module

from .ir_edit import walk_ops
from .ops import REALLOC, has


def expand_realloc(module: Module, emit_deallocs: bool = True) -> int:
    """Expand every reallocation of ``module``; returns how many."""
    from .ops.memref import expand_realloc as expand

    reallocs = [op for op in walk_ops(module) if has(op, REALLOC)]
    for op in reallocs:
        expand(op, emit_deallocs)
    return len(reallocs)
