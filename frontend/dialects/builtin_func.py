"""builtin.module and func.{func, return, call, call_indirect, constant}.

Representation (MLIR property names): func.func has ``sym_name`` (StringAttr),
``function_type`` (TypeAttr of FunctionType), optional ``sym_visibility``,
``arg_attrs`` / ``res_attrs`` (ArrayAttr of DictAttr, only when some are non-empty) and
one isolated region (no blocks for a declaration). func.call has ``callee``.
"""

from __future__ import annotations

from ..attrs import ArrayAttr, DictAttr, StringAttr, SymbolRefAttr, TypeAttr, format_symbol
from ..ir import Op, Region
from ..types import FunctionType
from . import builds, prints
from ._smb import ensure_block

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any


def _present(x: Any) -> bool:
    return x is not None


def func_signature(ctx: Any, vis: Any, sym: Any, args: Any, results: Any, attrs_kw: Any,
                   ) -> tuple[dict[str, Any], list[tuple[str, Any, Any]], bool]:
    """A function-like op's signature (func.func, transform.named_sequence): its
    properties (``sym_name``, ``function_type``, ``sym_visibility``, ``arg_attrs``,
    ``res_attrs``, the ``attributes {..}``), the entry arguments (name, type, loc) and
    whether the arguments are named."""
    attrs: dict[str, Any] = {"sym_name": StringAttr(ctx.symbol(sym).root)}
    arg_list = args.children if args is not None else []
    in_types: list[Any] = []
    arg_attrs: list[DictAttr] = []
    entry: list[tuple[str, Any, Any]] = []
    named = [a.data == "func_named_arg" for a in arg_list]
    if any(named) and not all(named):
        ctx.error(args, "function arguments must be either all named or all types")
    for a in arg_list:
        if a.data == "func_named_arg":
            tok, ty, ad, _loc = a.children
            t = ctx.type(ty)
            entry.append((str(tok)[1:], t, ctx.loc(tok)))
        else:
            ty, ad, _loc = a.children
            t = ctx.type(ty)
        in_types.append(t)
        arg_attrs.append(DictAttr(tuple(ctx.attr_dict(ad).items())))
    out_types: list[Any] = []
    res_attrs: list[DictAttr] = []
    if results is not None:
        for r in results.children:
            if r is None:
                continue
            if r.data == "func_result":
                out_types.append(ctx.type(r.children[0]))
                res_attrs.append(DictAttr(tuple(ctx.attr_dict(r.children[1]).items())))
            else:
                out_types.append(ctx.type(r))
                res_attrs.append(DictAttr(()))
    attrs["function_type"] = TypeAttr(FunctionType(tuple(in_types), tuple(out_types)))
    if vis is not None:
        attrs["sym_visibility"] = StringAttr(str(vis.children[0]))
    if any(d.items for d in arg_attrs):
        attrs["arg_attrs"] = ArrayAttr(tuple(arg_attrs))
    if any(d.items for d in res_attrs):
        attrs["res_attrs"] = ArrayAttr(tuple(res_attrs))
    attrs.update(ctx.attr_dict(attrs_kw))
    return attrs, entry, all(named)


@builds("func_func")
def build_func(ctx: Any, tree: Any) -> Op:
    vis, sym, args, results, attrs_kw, body = tree.children
    attrs, entry, named = func_signature(ctx, vis, sym, args, results, attrs_kw)
    if body is None:  # a declaration; argument names, if written, are dropped as in MLIR
        region = Region()
    else:
        if args is not None and not named:
            ctx.error(args, "a function with a body needs named arguments")
        region = ctx.region(body, entry_args=entry, isolated=True)
    return Op("func.func", (), (), attrs, [region])


def print_signature(p: Any, op: Op, keyword: str, arg_names: list[str] | None) -> str:
    """``keyword [visibility] @name(%a: T {attrs}, ..) [-> R] [attributes {..}]`` of a
    function-like op; ``arg_names`` None prints the argument types only (a declaration)."""
    ft: FunctionType = op.attrs["function_type"].type
    vis = op.attrs.get("sym_visibility")
    arg_attrs = op.attrs.get("arg_attrs")
    res_attrs = op.attrs.get("res_attrs")
    s = keyword + " "
    if isinstance(vis, StringAttr):
        s += vis.value + " "
    s += format_symbol(op.attrs["sym_name"].value) + "("
    parts = []
    for i, t in enumerate(ft.inputs):
        piece = f"{arg_names[i]}: {p.type(t)}" if arg_names is not None else p.type(t)
        if isinstance(arg_attrs, ArrayAttr) and i < len(arg_attrs.elems) and arg_attrs.elems[i].items:
            piece += " " + p.attr(arg_attrs.elems[i])
        parts.append(piece)
    s += ", ".join(parts) + ")"
    if ft.results:
        rs = []
        has_ra = isinstance(res_attrs, ArrayAttr)
        for i, t in enumerate(ft.results):
            piece = p.type(t)
            if has_ra and i < len(res_attrs.elems) and res_attrs.elems[i].items:
                piece += " " + p.attr(res_attrs.elems[i])
            rs.append(piece)
        if len(rs) == 1 and rs[0] == str(ft.results[0]) and not isinstance(ft.results[0], FunctionType):
            s += f" -> {rs[0]}"
        else:
            s += " -> (" + ", ".join(rs) + ")"
    extra = p.attr_dict(op, elide=("sym_name", "function_type", "sym_visibility",
                                   "arg_attrs", "res_attrs"))
    if extra:
        s += " attributes" + extra
    return s


@prints("func.func")
def print_func(p: Any, op: Op) -> str:
    region = op.regions[0] if op.regions else Region()
    entry = region.blocks[0] if region.blocks else None
    names = [p.value(a) for a in entry.args] if entry is not None else None
    s = print_signature(p, op, "func.func", names)
    if entry is not None:
        s += " " + p.region(region, entry_args=False)
    return s


@builds("func_return")
def build_return(ctx: Any, tree: Any) -> Op:
    ad, vals, tys = tree.children
    types = ctx.types(tys)
    return Op("func.return", ctx.uses(vals, types), (), ctx.attr_dict(ad))


@prints("func.return")
def print_return(p: Any, op: Op) -> str:
    s = "return" + p.attr_dict(op)
    if op.operands:
        s += f" {p.values(op.operands)} : {p.types([v.type for v in op.operands])}"
    return s


@builds("func_call")
def build_call(ctx: Any, tree: Any) -> Op:
    sym, vals, ad, fty = tree.children
    ft = ctx.type(fty)
    attrs = {"callee": ctx.symbol(sym)}
    attrs.update(ctx.attr_dict(ad))
    return Op("func.call", ctx.uses(vals, list(ft.inputs)), list(ft.results), attrs)


def _fn_type(p: Any, ins: list[Any], outs: list[Any]) -> str:
    return str(FunctionType(tuple(ins), tuple(outs)))


@prints("func.call")
def print_call(p: Any, op: Op) -> str:
    callee = op.attrs.get("callee")
    if not isinstance(callee, SymbolRefAttr):
        return p.generic_op(op)
    parent = op.parent_op
    kw = "call" if parent is None or parent.name == "func.func" else "func.call"  # default dialect
    return (f"{kw} {callee}({p.values(op.operands)}){p.attr_dict(op, elide=('callee',))}"
            f" : {_fn_type(p, [v.type for v in op.operands], [r.type for r in op.results])}")


@builds("func_call_indirect")
def build_call_indirect(ctx: Any, tree: Any) -> Op:
    callee, vals, ad, fty = tree.children
    ft = ctx.type(fty)
    ops = [ctx.use(callee, ft), *ctx.uses(vals, list(ft.inputs))]
    return Op("func.call_indirect", ops, list(ft.results), ctx.attr_dict(ad))


@prints("func.call_indirect")
def print_call_indirect(p: Any, op: Op) -> str:
    f, *args = op.operands
    return (f"func.call_indirect {p.value(f)}({p.values(args)}){p.attr_dict(op)} : "
            f"{_fn_type(p, [v.type for v in args], [r.type for r in op.results])}")


@builds("func_constant")
def build_func_constant(ctx: Any, tree: Any) -> Op:
    sym, ad, ty = tree.children
    attrs = {"value": ctx.symbol(sym)}
    attrs.update(ctx.attr_dict(ad))
    return Op("func.constant", (), [ctx.type(ty)], attrs)


@prints("func.constant")
def print_func_constant(p: Any, op: Op) -> str:
    return (f"func.constant {op.attrs['value']}{p.attr_dict(op, elide=('value',))} : "
            f"{p.type(op.results[0].type)}")


@builds("builtin_module")
def build_module(ctx: Any, tree: Any) -> Op:
    sym, attrs_kw, body = tree.children
    attrs: dict[str, Any] = {}
    if sym is not None:
        attrs["sym_name"] = StringAttr(ctx.symbol(sym).root)
    attrs.update(ctx.attr_dict(attrs_kw))
    region = ctx.region(body, entry_args=None, isolated=True, then=ensure_block)
    return Op("builtin.module", (), (), attrs, [region])


@prints("builtin.module")
def print_module_op(p: Any, op: Op) -> str:
    s = "module"
    name = op.attrs.get("sym_name")
    if isinstance(name, StringAttr):
        s += " " + format_symbol(name.value)
    extra = p.attr_dict(op, elide=("sym_name",))
    if extra:
        s += " attributes" + extra
    r = op.regions[0]
    if len(r.blocks) == 1 and not r.blocks[0].ops and not r.blocks[0].args:
        return s + " {\n" + "  " * p.indent + "}"
    return s + " " + p.region(r, entry_args=True)
