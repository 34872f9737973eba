"""Out-parameters for private functions (issue 12 item 4, seed 001's interprocedural
hoisting), on bufferized IR before deallocation.

A private function whose result ``k`` is always a fresh buffer it allocates takes that
buffer from its callers instead: the ``memref.alloc`` moves to every call site, the
function gets a memref argument in its place and returns one result less. The caller
then owns the buffer as it owned the returned one, so the deallocation frees it at the
same places; and an allocation in the caller is one the other stages can hoist out of a
loop or put on the stack.

Result ``k`` of ``@f`` qualifies when:

* ``@f`` is private, has a body with exactly one ``func.return``, no argument or result
  attributes, and every use of its symbol is the callee of a ``func.call`` (no other
  reference that could call it with the old signature);
* the returned value is a ``memref.alloc`` of static shape (no size operands) made
  directly in the function's body, not in a nested region, and returned only as result
  ``k``;
* no alias of the buffer (views, casts, selects) leaves the function another way: none
  reaches another terminator, a region op's init or a call that returns memrefs.

Public functions keep their ABI.
"""

from __future__ import annotations

import re

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import TypeAttr
from bufferlog.frontend.ir import Module, Op

from .ir_edit import walk_ops
from .output_map import handover
from .plan_stack import is_local, static_alloc


def _fresh_results(func: Op) -> list[int]:
    """The results of ``func`` that qualify (module doc), in order."""
    rets = [op for op in walk_ops(func) if op.name == "func.return"]
    if len(rets) != 1:
        return []
    ret = rets[0]
    out = []
    for k, v in enumerate(ret.operands):
        op = getattr(v, "op", None)
        if (op is None or not static_alloc(op) or op.parent_op is not func
                or ret.operands.count(v) != 1):
            continue
        if is_local(v, ret):
            out.append(k)
    return out


def _referenced_elsewhere(module: Module, name: str) -> bool:
    """``@name`` appears in an attribute other than a ``func.call``'s callee."""
    pat = re.compile(re.escape("@" + name) + r"(?![\w$.-])")
    for op in walk_ops(module):
        for key, attr in op.attrs.items():
            if key == "sym_name" or (key == "callee" and op.name == "func.call"):
                continue
            if pat.search(str(attr)):
                return True
    return False


def out_params(module: Module) -> int:
    """Rewrite every qualifying result into an out-parameter; returns how many."""
    funcs = {f.attrs["sym_name"].value: f for f in module.functions()}
    calls: dict[str, list[Op]] = {}
    for op in walk_ops(module):
        if op.name == "func.call":
            calls.setdefault(op.attrs["callee"].root, []).append(op)
    n = 0
    for name, f in funcs.items():
        vis = f.attrs.get("sym_visibility")
        if (vis is None or vis.value != "private" or not f.regions or not f.regions[0].blocks
                or "arg_attrs" in f.attrs or "res_attrs" in f.attrs
                or _referenced_elsewhere(module, name)):
            continue
        ks = _fresh_results(f)
        if ks:
            _rewrite(f, ks, calls.get(name, []))
            n += len(ks)
    return n


def _rewrite(f: Op, ks: list[int], calls: list[Op]) -> None:
    ret = next(op for op in walk_ops(f) if op.name == "func.return")
    entry = f.regions[0].blocks[0]
    ft: T.FunctionType = f.attrs["function_type"].type
    allocs = [ret.operands[k].op for k in ks]
    name = f.attrs["sym_name"].value
    for a in allocs:
        arg = entry.add_arg(a.result.type)
        a.result.replace_all_uses_with(arg)
        handover(a)
        a.erase()
    ret.set_operands([v for k, v in enumerate(ret.operands) if k not in ks])
    outs = [t for k, t in enumerate(ft.results) if k not in ks]
    f.attrs["function_type"] = TypeAttr(T.FunctionType(
        (*ft.inputs, *(a.result.type for a in allocs)), tuple(outs)))
    for call in calls:
        blk = call.parent
        fresh = []
        for k, a in zip(ks, allocs, strict=True):
            new = Op("memref.alloc", [], [a.result.type], dict(a.attrs), loc=call.loc)
            new.cause = (f"out-parameter of @{name}: its result {k} was a fresh buffer, now "
                         "allocated by the caller (plan_outparams)")
            blk.insert_before(call, new)
            call.results[k].replace_all_uses_with(new.result)
            fresh.append(new.result)
        kept = [r for k, r in enumerate(call.results) if k not in ks]
        nc = Op("func.call", [*call.operands, *fresh], [r.type for r in kept], dict(call.attrs),
                loc=call.loc, result_names=[r.name for r in kept])
        blk.insert_before(call, nc)
        for old, r in zip(kept, nc.results, strict=True):
            old.replace_all_uses_with(r)
        handover(call, nc)
        # the callee now writes the call's results into the new operands
        n = len(call.operands)
        nc.tv_prod = [*getattr(nc, "tv_prod", ()),
                      *((n + j, tv) for j in range(len(fresh)) for tv in getattr(nc, "tv_def", ()))]
        call.erase()
