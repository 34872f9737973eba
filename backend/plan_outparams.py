"""Out-parameters for private functions (interprocedural hoisting), on bufferized IR
before deallocation.

A private function whose result ``k`` is always a fresh buffer it allocates takes that
buffer from its callers instead: the ``memref.alloc`` moves to every call site, the
function gets a memref argument in its place and returns one result less. The caller
then owns the buffer as it owned the returned one, so the deallocation frees it at the
same places; and an allocation in the caller is one the other stages can hoist out of a
loop or put on the stack.

Result ``k`` of ``@f`` qualifies (``out_param`` of rules/placement.dl) when:

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

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import TypeAttr
from bufferlog.frontend.ir import Module, Op

from .ir_edit import walk_ops
from .ops import RETURN, has, memref
from .output_map import handover


def out_params(module: Module, engine: str = "auto", rules_dir=None) -> int:
    """Rewrite every result ``rules/placement.dl`` (``out_param``) names into an
    out-parameter; returns how many."""
    from .plan_place import out_params as place

    return place(module, engine, rules_dir)


def rewrite(f: Op, ks: list[int], calls: list[Op]) -> None:
    """Results ``ks`` of function ``f`` become arguments; each of ``calls`` allocates them
    before the call."""
    ret = next(op for op in walk_ops(f) if has(op, RETURN))
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
            new = memref.alloc(a.result.type)
            new.attrs.update(a.attrs)
            new.loc = call.loc
            new.cause = (f"out-parameter of @{name}: its result {k} was a fresh buffer, now "
                         "allocated by the caller (plan_outparams)")
            blk.insert_before(call, new)
            call.results[k].replace_all_uses_with(new.result)
            fresh.append(new.result)
        kept = [r for k, r in enumerate(call.results) if k not in ks]
        nc = Op(call.name, [*call.operands, *fresh], [r.type for r in kept], dict(call.attrs),
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
