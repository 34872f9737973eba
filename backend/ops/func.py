"""func: functions, calls and returns (function-boundary bufferization).

Analysis: a return reads its operands and must keep them in place; a call's per-operand
semantics come from its callee's summary (rules/analysis/calls.dl); both are unknown ops
when function boundaries are not bufferized (``sem_boundary``). Deallocation: a
function's memref arguments are lent by its caller, a return hands its memrefs to the
caller, a call's memref results are the caller's to free (``mem_func``, ``mem_return``,
``mem_alloc``). Rewrite: signatures take memrefs (identity or fully dynamic layout; with
``infer-layout-map`` a result takes the type its returns hand back); every result stays
in the signature, as mlir-opt's One-Shot Bufferize keeps it (a result that is an
argument's buffer is dropped only by the separate ``-drop-equivalent-buffer-results``
stage, :mod:`backend.plan_drop`); callees are bufferized before their callers.
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import TypeAttr
from bufferlog.frontend.ir import Op, Value

from ..ir_edit import walk_ops
from ..layouts import memref_of
from . import CALL, FUNCTION, RETURN, mem, op, sem

FUNC = "func.func"


def functions(module) -> list[Op]:
    """The functions of ``module``."""
    return [o for o in walk_ops(module) if o.name == FUNC]


def symbol(f: Op) -> str:
    return f.attrs["sym_name"].value


def callee(call: Op) -> str | None:
    """The symbol a call names."""
    return getattr(call.attrs.get("callee"), "root", None)


@op(FUNC, sem.known(), mem.func(), traits=(FUNCTION,), exports=("function",))
def function(bz, f: Op) -> None:
    """Bufferize ``f`` once, its callees first (a recursive callee keeps its results)."""
    name = symbol(f)
    if bz.state.get(name):
        return
    bz.state[name] = "busy"
    saved = bz.ip
    for o in walk_ops(f):
        g = bz.funcs.get(callee(o)) if o.name == "func.call" else None
        if g is not None:
            function(bz, g)
    bz.ip = saved
    bz.current = f
    ft = f.attrs["function_type"].type
    bound = bz.function_boundaries  # off: the signature stays, like mlir-opt's default
    ins = tuple(memref_of(t, bz.layout) if T.is_tensor(t) and bound else t for t in ft.inputs)
    outs = [memref_of(t, bz.layout) if T.is_tensor(t) and bound else t for t in ft.results]
    blocks = f.regions[0].blocks
    if blocks:
        for a in blocks[0].args:
            if T.is_tensor(a.type) and bound:
                a.type = memref_of(a.type, bz.layout)
                bz.buf[a] = a
        if not bound:
            bz.leave_on_tensors(blocks[0])
        bz.result_types = outs
        bz.returned = []  # infer-layout-map: (return, position, result, buffer)
        bz.pending = {}
        for blk in blocks:
            if blk is not blocks[0]:
                bz.block_args(blk)
            bz.block(blk)
        if bz.layout == "infer-layout-map":
            infer_results(bz, outs, name in bz.recursive)
    f.attrs["function_type"] = TypeAttr(T.FunctionType(ins, tuple(outs)))
    bz.state[name] = "done"


def infer_results(bz, outs: list, recursive: bool) -> None:
    """``infer-layout-map``: a tensor result takes the type of the buffer every return
    hands back (a returned subview keeps its strided type: no copy); returns that
    disagree, and recursive functions (whose callers were bufferized first), get the
    fully dynamic layout, with casts in the returns."""
    by_k: dict[int, set] = {}
    for _op, _i, k, b in bz.returned:
        by_k.setdefault(k, set()).add(b.type)
    for k, types in by_k.items():
        if len(types) == 1 and not recursive:
            outs[k] = next(iter(types))
    for o, i, k, b in bz.returned:
        if b.type != outs[k]:
            bz.ip = o
            o.set_operand(i, bz.to_type(b, outs[k]))


@op("func.return", sem.known(), sem.return_(), sem.read(-1), sem.must_inplace(), sem.boundary(),
    mem.return_(), mem.read(-1), traits=(RETURN,), always=True)
def return_(bz, op: Op):
    """The returned tensors' buffers, cast to the result types (or, with
    ``infer-layout-map``, recorded to decide them)."""
    if not bz.function_boundaries:
        return bz.unknown(op)
    vals = []
    for k, v in enumerate(op.operands):
        if bz.t_use(op, k):
            b = bz.B(v)
            if bz.layout == "infer-layout-map":
                bz.returned.append((op, len(vals), k, b))
                v = b
            else:
                v = bz.to_type(b, bz.result_types[k])
        vals.append(v)
    op.set_operands(vals)


@op("func.call", sem.known(), sem.boundary(), mem.alloc(), mem.access(), traits=(CALL,),
    exports=("call",))
def call(bz, op: Op):
    """A call of the bufferized callee: each tensor argument its buffer (a copy when the
    analysis put it out of place and the callee reads it; or a copy of the one result
    that alone aliases it, after the call)."""
    if not bz.function_boundaries:  # calls are unknown ops (mlir-opt's default)
        return bz.unknown(op)
    name = op.attrs["callee"].root
    f = bz.funcs.get(name)
    if f is None:
        bz.fail(op, f"bufferize: call to unknown function @{name}")
    ft = f.attrs["function_type"].type
    ft_in = [memref_of(t, bz.layout) if T.is_tensor(t) else t for t in ft.inputs] \
        if any(T.is_tensor(t) for t in ft.inputs) else list(ft.inputs)
    args, copy_results = [], {}
    for i, v in enumerate(op.operands):
        if bz.t_use(op, i):
            r = sole_alias_result(bz, op, i)
            if r is not None:  # copy that result after the call, not the argument
                copy_results[r] = i
                b = bz.B(v)
            else:  # a copy only if its contents are needed (copy_contents)
                b = bz.operand_buffer(op, i)
            v = bz.to_type(b, ft_in[i])
        args.append(v)
    if bz.state.get(name) == "busy":
        bz.recursive.add(name)
    if bz.state.get(name) == "done":  # the callee's results as bufferized
        types = list(ft.results)
    else:
        types = [memref_of(r.type, bz.layout) if bz.is_t(r) else r.type for r in op.results]
    new = bz.emit(op.name, args, types, {"callee": op.attrs["callee"]})
    for r, n in zip(op.results, new.results, strict=True):
        if bz.is_t(r):
            bz.buf[r] = n
        else:
            r.replace_all_uses_with(n)
    for r, i in copy_results.items():
        bz.buf[r] = bz.copy_instead(op, i, r, bz.buf[r])
    bz.dead.append(op)


def sole_alias_result(bz, op: Op, i: int) -> Value | None:
    """The result to copy instead of out-of-place operand ``i`` of a call
    (``copy_to_result`` of rules/analysis/copies.dl: the callee does not write the
    argument, and the argument and one ranked result alias only each other)."""
    vid = bz.copy_to_result.get((bz.op_id.get(op, -1), i))
    if vid is None:
        return None
    return next((r for r in op.results if bz.facts.value_id.get(r) == vid), None)
