"""Loop hoisting and stack promotion of bufferized allocations, before deallocation
(the parts of mlir-opt's ``--buffer-loop-hoisting`` and ``--promote-buffers-to-stack``
that bufferlog's output needs).

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

from bufferlog.frontend import types as T
from bufferlog.frontend.ir import Module, Op, Value

from .ir_edit import walk_ops

SEQUENTIAL_LOOPS = ("scf.for", "scf.while")
LOOPS = (*SEQUENTIAL_LOOPS, "scf.forall", "scf.parallel", "affine.for", "affine.parallel")
CALLS = ("func.call", "func.call_indirect")
BRANCHES = ("scf.if", "scf.index_switch")


def _is_terminator(op: Op) -> bool:
    return op.parent is not None and op.parent.ops[-1] is op


def _takes_in(op: Op) -> bool:
    """Op ``op`` may hand an operand to its regions (a region argument of memref type)."""
    return any(isinstance(a.type, (T.MemRefType, T.UnrankedMemRefType))
               for r in op.regions for b in r.blocks for a in b.args)


def _branch_results(term: Op, v: Value) -> list[Value]:
    """The results of the ``scf.if`` / ``scf.index_switch`` that branch terminator ``term``
    passes ``v`` to (``[]`` when ``term`` is not the ``scf.yield`` of such a branch)."""
    owner = term.parent_op if term.name == "scf.yield" else None
    if owner is None or owner.name not in BRANCHES:
        return []
    return [r for r, w in zip(owner.results, term.operands, strict=True) if w is v]


def _callee_keeps_none(call: Op, v: Value, checking: frozenset) -> bool:
    """``call`` is a ``func.call`` of a function of this module that never returns (nor
    otherwise lets out) an alias of the arguments it gets as ``v``. ``checking``: the
    parameters whose locality is being decided up the call chain; a (mutually) recursive
    call back to one of them is taken as an escape."""
    if call.name != "func.call":
        return False
    sym = getattr(call.attrs.get("callee"), "root", None)
    scope = call
    while scope.parent_op is not None:
        scope = scope.parent_op
    fn = next((f for r in scope.regions for b in r.blocks for f in b.ops
               if f.name == "func.func" and getattr(f.attrs.get("sym_name"), "value", None) == sym
               and f.regions and f.regions[0].blocks), None)
    if fn is None:
        return False
    params = [fn.regions[0].blocks[0].args[k] for k, w in enumerate(call.operands) if w is v]
    return all(a not in checking and is_local(a, checking=checking | {a}) for a in params)


def is_local(alloc: Value, exit: Op | None = None, checking: frozenset = frozenset()) -> bool:
    """No alias of ``alloc`` leaves the region iteration that made it (module doc), except
    ``alloc`` itself as an operand of terminator ``exit``, if given (``checking``: see
    :func:`_callee_keeps_none`)."""
    seen, todo = {alloc}, [alloc]
    while todo:
        v = todo.pop()
        for use in v.uses:
            op = use.op
            if op is exit and v is alloc:
                continue
            results = [r for r in op.results if isinstance(r.type, (T.MemRefType,
                                                                    T.UnrankedMemRefType))]
            if _is_terminator(op):
                results = _branch_results(op, v)
                if not results:
                    return False
            elif _takes_in(op):
                return False
            elif op.name in CALLS and results:
                if not _callee_keeps_none(op, v, checking):
                    return False
                results = []
            for r in results:
                if r not in seen:
                    seen.add(r)
                    todo.append(r)
    return True


def static_alloc(op: Op) -> bool:
    return (op.name == "memref.alloc" and not op.operands
            and isinstance(op.results[0].type, T.MemRefType)
            and all(d is not None for d in op.results[0].type.shape))


def hoist_out_of_loops(module: Module) -> int:
    """Move local static allocations out of sequential loops; the number of moves."""
    moved = 0
    for op in list(walk_ops(module)):
        if not static_alloc(op) or not is_local(op.results[0]):
            continue
        while op.parent_op is not None and op.parent_op.name in SEQUENTIAL_LOOPS:
            loop = op.parent_op
            op.parent.ops.remove(op)
            loop.parent.insert_before(loop, op)
            op.cause = (f"{op.cause}; " if op.cause else "") + (
                f"hoisted out of the {loop.name}: one buffer serves every iteration")
            moved += 1
    return moved


def _runs_once(op: Op) -> bool:
    """No loop around ``op`` in its function and only entry blocks above it."""
    while op.parent is not None:
        blk = op.parent
        region = blk.parent
        if region is None or region.blocks[0] is not blk:
            return False
        owner = region.parent
        if owner is None or owner.name == "func.func":
            return owner is not None
        if owner.name in LOOPS:
            return False
        op = owner
    return False


def promote_to_stack(module: Module, max_alloc_size_in_bytes: int) -> int:
    """Turn small local allocations that run once per call into ``memref.alloca``."""
    from .plan import static_bytes

    promoted = 0
    for op in list(walk_ops(module)):
        if not static_alloc(op):
            continue
        size = static_bytes(op.results[0].type)
        if size is None or size > max_alloc_size_in_bytes:
            continue
        if not _runs_once(op) or not is_local(op.results[0]):
            continue
        op.name = "memref.alloca"
        op.cause = (f"{op.cause}; " if op.cause else "") + (
            f"on the stack: {size} bytes, made once per call, no alias leaves the function")
        promoted += 1
    return promoted
