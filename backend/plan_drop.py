"""Dropping function results that are an argument's buffer: mlir-opt's
``-drop-equivalent-buffer-results``, on bufferized IR before deallocation.

Result ``k`` of a function is dropped when every ``func.return`` of the function returns
the same block argument of its entry block (looking through ``memref.cast``). The
function loses the result; each ``func.call`` of it is replaced by a call without it, and
the uses of the old result take the call's operand for that argument instead (through a
``memref.cast`` when the types differ). Dropping a callee's result can make a caller's
result an argument of the caller: the callers are visited again until nothing changes.

Which functions may lose results (``mode``):

* ``private`` (mlir-opt's pass): private functions with a body, defined at the top of
  the module; public functions keep their signature (their callers may be compiled
  elsewhere, against the signature mlir-opt makes);
* ``all``: every function with a body, public ones included (a bufferlog option: use it
  only when every caller is in this module).
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import ArrayAttr, TypeAttr
from bufferlog.frontend.ir import Module, Op

from .ir_edit import walk_ops
from .ops import CALL, FUNCTION, RETURN, has, memref
from .ops.func import callee, symbol
from .ops.memref import strip_casts
from .output_map import handover, keep_operands, keep_results, result_made_in

MODES = ("none", "private", "all")


def _may_change(f: Op, mode: str) -> bool:
    if not f.regions or not f.regions[0].blocks:  # a declaration
        return False
    vis = f.attrs.get("sym_visibility")
    return mode == "all" or (vis is not None and vis.value == "private")


def _equivalent_results(f: Op) -> dict[int, int]:
    """result index -> argument index, for the results every return gives as that
    argument (modulo casts)."""
    rets = [b.ops[-1] for b in f.regions[0].blocks if b.ops and has(b.ops[-1], RETURN)]
    if not rets:
        return {}
    args = f.regions[0].blocks[0].args
    out = {}
    for k in range(len(rets[0].operands)):
        roots = {strip_casts(r.operands[k]) for r in rets}
        if len(roots) == 1:
            root = roots.pop()
            if root in args:
                out[k] = args.index(root)
    return out


def drop_equivalent_results(module: Module, mode: str = "private") -> int:
    """Drop every result of the functions ``mode`` allows that is an argument's buffer;
    returns how many results were dropped."""
    if mode not in MODES:
        raise ValueError(f"drop-equivalent-buffer-results: unknown mode {mode!r}")
    if mode == "none":
        return 0
    funcs = {symbol(f): f for f in module.functions()}
    calls: dict[str, list[Op]] = {}
    for op in walk_ops(module):
        if has(op, CALL) and callee(op) in funcs:
            calls.setdefault(callee(op), []).append(op)
    work = [name for name, f in funcs.items() if _may_change(f, mode)]
    queued = set(work)
    n = 0
    while work:
        name = work.pop()
        queued.discard(name)
        f = funcs[name]
        drop = _equivalent_results(f)
        if not drop:
            continue
        n += len(drop)
        _drop_from_function(f, drop)
        new_calls = []
        for call in calls.get(name, []):
            new_calls.append(_drop_from_call(call, drop))
            caller = _function_of(call)
            if caller is not None:
                cname = symbol(caller)
                if _may_change(caller, mode) and cname not in queued:
                    work.append(cname)
                    queued.add(cname)
        calls[name] = new_calls
    return n


def _function_of(op: Op) -> Op | None:
    p = op.parent_op
    while p is not None and not has(p, FUNCTION):
        p = p.parent_op
    return p


def _drop_from_function(f: Op, drop: dict[int, int]) -> None:
    for b in f.regions[0].blocks:
        ret = b.ops[-1] if b.ops else None
        if ret is not None and has(ret, RETURN):
            kept = [k for k in range(len(ret.operands)) if k not in drop]
            keep_operands(ret, kept)
            ret.set_operands([ret.operands[k] for k in kept])
    ft: T.FunctionType = f.attrs["function_type"].type
    f.attrs["function_type"] = TypeAttr(T.FunctionType(
        ft.inputs, tuple(t for k, t in enumerate(ft.results) if k not in drop)))
    if "res_attrs" in f.attrs:
        kept = tuple(a for k, a in enumerate(f.attrs["res_attrs"].elems) if k not in drop)
        if kept:
            f.attrs["res_attrs"] = ArrayAttr(kept)
        else:
            del f.attrs["res_attrs"]


def _drop_from_call(call: Op, drop: dict[int, int]) -> Op:
    blk = call.parent
    kept = [r for k, r in enumerate(call.results) if k not in drop]
    new = Op(call.name, list(call.operands), [r.type for r in kept], dict(call.attrs),
             loc=call.loc, result_names=[r.name for r in kept])
    new.cause = getattr(call, "cause", None)
    for k, j in drop.items():
        result_made_in(call, k, j)
    keep_results(call, [k for k in range(len(call.results)) if k not in drop])
    handover(call, new)
    blk.insert_before(call, new)
    for k, j in drop.items():
        r, v = call.results[k], call.operands[j]
        if v.type != r.type:
            cast = memref.cast(v, r.type)
            cast.loc = call.loc
            cast.cause = getattr(call, "cause", None)
            blk.insert_before(call, cast)
            v = cast.result
        r.replace_all_uses_with(v)
    for old, r in zip(kept, new.results, strict=True):
        old.replace_all_uses_with(r)
    call.erase()
    return new
