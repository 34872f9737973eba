"""Loop hoisting and stack promotion of bufferized allocations, before deallocation
(the parts of mlir-opt's ``--buffer-loop-hoisting`` and ``--promote-buffers-to-stack``
that bufferlog's output needs): ``local_alloc``, ``hoist_before`` and ``promote`` of
rules/placement.dl decide, backend/plan_place.py moves the ops.

An allocation is *local* when no buffer that may alias it leaves the place it was made:
follow its aliases (every memref result of an op that takes one: views, casts, selects);
it escapes if one reaches a terminator (``func.return``, a loop's ``scf.yield``, a branch
...; the ``scf.yield`` of an ``scf.if`` / ``scf.index_switch`` branch passes it on to the
op's results, followed in turn), is an operand of an op whose regions take memref
arguments (a loop init), or is an operand of a call that returns memrefs, unless the
callee is a function of the module whose argument is itself local (it never returns an
alias of it). A local buffer is dead by the end of the region iteration that made it
(or of the one the ``scf.if`` it flows out of is in).

* Hoisting: a local ``memref.alloc`` of static shape directly in the body of a sequential
  loop (``scf.for``, ``scf.while``) moves before the loop: each iteration used a fresh
  buffer that died with it, so one buffer serves them all. Repeated out of nested loops.
* Stack promotion: a local ``memref.alloc`` of static shape of at most
  ``max_alloc_size_in_bytes`` (mlir-opt's option, default 1024) that runs at most once
  per call (no enclosing loop, only entry blocks of their regions above it, so no cf
  cycle) becomes a ``memref.alloca``: freed when the function returns, never on the heap.
"""

from __future__ import annotations

from bufferlog.frontend.ir import Module


def hoist_out_of_loops(module: Module, engine: str = "auto", rules_dir=None) -> int:
    """Move local static allocations out of sequential loops; the number of moves."""
    from .plan_place import hoist_and_promote

    return hoist_and_promote(module, True, False, 0, engine, rules_dir)[0]


def promote_to_stack(module: Module, max_alloc_size_in_bytes: int, engine: str = "auto",
                     rules_dir=None) -> int:
    """Turn small local allocations that run once per call into ``memref.alloca``."""
    from .plan_place import hoist_and_promote

    return hoist_and_promote(module, False, True, max_alloc_size_in_bytes, engine, rules_dir)[1]
