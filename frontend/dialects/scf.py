"""scf dialect: custom assembly of scf.for / if / while / condition / yield / forall /
forall.in_parallel / execute_region / index_switch, plus tensor.parallel_insert_slice
(which only appears inside scf.forall.in_parallel). Grammar: ``grammar/scf.lark``.

Representation follows MLIR's generic form: scf.for operands ``[lb, ub, step, *inits]``
and a body block ``(iv, *iter_args)``; scf.if regions ``[then, else]`` with an empty else
region when absent; scf.while regions ``[before, after]``; scf.forall operands
``[*dyn_lb, *dyn_ub, *dyn_step, *outputs]`` with ``staticLowerBound`` / ``staticUpperBound``
/ ``staticStep`` and ``operandSegmentSizes``; scf.index_switch regions
``[default, *cases]`` with ``cases = array<i64: ...>``. Implicit terminators
(``scf.yield``, ``scf.forall.in_parallel``) are materialised as MLIR does.
"""

from __future__ import annotations

from bufferlog.core.records import value_class

from ..attrs import DenseArrayAttr, UnitAttr
from ..ir import Block, Op, Region, Value
from ..syntax_tree import Tree
from ..types import FunctionType, IndexType, IntegerType
from . import builds, prints
from ._smb import (
    attr_dict,
    ensure_block,
    ensure_terminator,
    has,
    is_trivial_terminator,
    join_mixed,
    kid,
    kids,
    mixed,
    print_mixed,
    segment,
    segments,
    split_mixed,
    ssa_def_name,
    static_values,
    typed_use,
    typed_uses,
    typed_values,
    types_arrow,
)

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

# -- helpers for the analysis ----------------------------------------------------------


@value_class
class ForParts:
    lb: Value
    ub: Value
    step: Value
    inits: list[Value]
    body: Block
    iv: Value
    iter_args: list[Value]


def for_parts(op: Op) -> ForParts:
    """scf.for pieces: bounds, iter_args inits, body block, induction var, iter_args."""
    assert op.name == "scf.for", op.name
    lb, ub, step, *inits = op.operands
    body = op.regions[0].entry
    return ForParts(lb, ub, step, inits, body, body.args[0], list(body.args[1:]))


@value_class
class IfParts:
    cond: Value
    then_block: Block
    else_block: Block | None


def if_parts(op: Op) -> IfParts:
    """scf.if pieces; ``else_block`` is None when the op has no else region."""
    assert op.name == "scf.if", op.name
    then_r, else_r = op.regions
    return IfParts(op.operands[0], then_r.entry, else_r.entry if else_r.blocks else None)


@value_class
class WhileParts:
    inits: list[Value]
    before: Block
    after: Block
    condition: Op  # the scf.condition terminating ``before``


def while_parts(op: Op) -> WhileParts:
    assert op.name == "scf.while", op.name
    before, after = op.regions[0].entry, op.regions[1].entry
    return WhileParts(list(op.operands), before, after, before.ops[-1])


@value_class
class ForallParts:
    lbs: list[int | Value]
    ubs: list[int | Value]
    steps: list[int | Value]
    outputs: list[Value]
    body: Block
    ivs: list[Value]
    shared_outs: list[Value]  # body block args bound to ``outputs``
    terminator: Op  # scf.forall.in_parallel


def forall_parts(op: Op) -> ForallParts:
    assert op.name == "scf.forall", op.name
    lbs = join_mixed(op.attrs["staticLowerBound"], segment(op, 0))
    ubs = join_mixed(op.attrs["staticUpperBound"], segment(op, 1))
    steps = join_mixed(op.attrs["staticStep"], segment(op, 2))
    outs = segment(op, 3)
    body = op.regions[0].entry
    n = len(ubs)
    return ForallParts(lbs, ubs, steps, outs, body, list(body.args[:n]),
                       list(body.args[n:]), body.ops[-1])


def region_yield(region: Region) -> Op | None:
    """The terminator of a single-block region (scf.yield / scf.condition / ...)."""
    if not region.blocks or not region.entry.ops:
        return None
    return region.entry.ops[-1]


def parallel_insert_slice_params(op: Op) -> tuple[Value, Value, list[int | Value],
                                                  list[int | Value], list[int | Value]]:
    """(source, dest, offsets, sizes, strides) of tensor.parallel_insert_slice."""
    assert op.name == "tensor.parallel_insert_slice", op.name
    return (op.operands[0], op.operands[1],
            join_mixed(op.attrs["static_offsets"], segment(op, 2)),
            join_mixed(op.attrs["static_sizes"], segment(op, 3)),
            join_mixed(op.attrs["static_strides"], segment(op, 4)))


# -- tree helpers ----------------------------------------------------------------------

def _types(ctx: Any, node: Tree | None) -> list[Any]:
    """Types of an ``scf_types`` / ``scf_if_results`` / ``scf_iv_type`` node."""
    if node is None:
        return []
    if node.data in ("scf_types", "scf_if_results", "scf_iv_type"):
        (c,) = [c for c in node.children if isinstance(c, Tree)]
        return _types(ctx, c)
    if node.data in ("type_list_parens", "type_list"):
        return list(ctx.types(node))
    return [ctx.type(node)]


def _assigns(ctx: Any, node: Tree | None, types: list[Any] | None = None,
             ) -> tuple[list[tuple[str, Any]], list[Value]]:
    """``%a = %x, ...`` -> ([(name, loc) of each defined arg], [init values]); the inits
    are checked against ``types`` when given (same count required)."""
    if node is None:
        return [], []
    lst = kid(node, "scf_assign_list") if node.data != "scf_assign_list" else node
    if lst is None:
        return [], []
    assigns = kids(lst, "scf_assign")
    if types is not None and len(types) != len(assigns):
        ctx.error(node, f"{len(assigns)} initial values but {len(types)} types")
    names, inits = [], []
    for i, a in enumerate(assigns):
        d, u = kids(a, "value_use")
        names.append((ssa_def_name(d), ctx.loc(d)))
        inits.append(typed_use(ctx, u, types[i] if types is not None else None))
    return names, inits


def _attrs(ctx: Any, tree: Tree, rule: str = "attr_dict") -> dict[str, Any]:
    node = kid(tree, rule)
    return dict(ctx.attr_dict(node)) if node is not None else {}


def _region(p: Any, r: Region, entry_args: bool = False, terminators: bool = True) -> str:
    """``p.region`` that can elide the entry block's terminator (as MLIR's printers do
    for implicit ``scf.yield`` / ``scf.forall.in_parallel``)."""
    elide = not terminators and bool(r.blocks) and bool(r.entry.ops)
    return p.region(r, entry_args=entry_args, elide_terminator=elide)


# -- scf.for ---------------------------------------------------------------------------

@builds("scf_for")
def build_for(ctx: Any, tree: Tree) -> Op:
    iv_node, lb, ub, step = kids(tree, "value_use")
    it = kid(tree, "scf_iter_args")
    types = _types(ctx, kid(it, "scf_types")) if it is not None else []
    names, inits = _assigns(ctx, it, types)
    ivt = kid(tree, "scf_iv_type")
    iv_type = _types(ctx, ivt)[0] if ivt is not None else IndexType()
    entry = [(ssa_def_name(iv_node), iv_type, ctx.loc(iv_node))]
    entry += [(n, t, loc) for (n, loc), t in zip(names, types, strict=True)]
    operands = [typed_use(ctx, n, iv_type) for n in (lb, ub, step)] + inits
    loc = ctx.loc(tree)
    region = ctx.region(kid(tree, "region"), entry_args=entry,
                        then=lambda r: ensure_terminator(r, "scf.yield", loc))
    attrs = {}
    if has(tree, "scf_unsigned"):
        attrs["unsignedCmp"] = UnitAttr()
    attrs.update(_attrs(ctx, tree))
    return Op("scf.for", operands, types, attrs, [region], loc=ctx.loc(tree))


@prints("scf.for")
def print_for(p: Any, op: Op) -> str:
    f = for_parts(op)
    s = "scf.for "
    if "unsignedCmp" in op.attrs:
        s += "unsigned "
    s += f"{p.value(f.iv)} = {p.value(f.lb)} to {p.value(f.ub)} step {p.value(f.step)}"
    if f.inits:
        s += " iter_args(" + ", ".join(
            f"{p.value(a)} = {p.value(v)}" for a, v in zip(f.iter_args, f.inits, strict=True))
        s += ")" + types_arrow(p, [r.type for r in op.results])
    if not isinstance(f.iv.type, IndexType):
        s += " : " + p.type(f.iv.type)
    term = bool(f.inits) or not is_trivial_terminator(f.body.terminator, "scf.yield")
    s += " " + _region(p, op.regions[0], terminators=term)
    return s + attr_dict(p, op, ("unsignedCmp",))


# -- scf.if ----------------------------------------------------------------------------

@builds("scf_if")
def build_if(ctx: Any, tree: Tree) -> Op:
    cond = typed_use(ctx, kid(tree, "value_use"), IntegerType(1))
    res = kid(tree, "scf_if_results")
    types = _types(ctx, res)
    loc = ctx.loc(tree)
    then_r = ctx.region(kid(tree, "region"), then=lambda r: ensure_terminator(r, "scf.yield", loc))
    els = kid(tree, "scf_else")
    if els is not None:
        else_loc = ctx.loc(els)
        else_r = ctx.region(kid(els, "region"),
                            then=lambda r: ensure_terminator(r, "scf.yield", else_loc))
    else:
        else_r = Region()
    return Op("scf.if", [cond], types, _attrs(ctx, tree), [then_r, else_r],
              loc=ctx.loc(tree))


@prints("scf.if")
def print_if(p: Any, op: Op) -> str:
    parts = if_parts(op)
    s = "scf.if " + p.value(parts.cond) + types_arrow(p, [r.type for r in op.results])
    for i, blk in enumerate((parts.then_block, parts.else_block)):
        if blk is None:
            continue
        term = bool(op.results) or not is_trivial_terminator(blk.terminator, "scf.yield")
        s += (" else " if i else " ") + _region(p, op.regions[i], terminators=term)
    return s + attr_dict(p, op)


# -- scf.while / condition / yield -----------------------------------------------------

@builds("scf_while")
def build_while(ctx: Any, tree: Tree) -> Op:
    ty_node = kid(tree, "type")
    fn = ctx.type(ty_node)
    if not isinstance(fn, FunctionType):
        ctx.error(ty_node, "scf.while expects a function type `(inits) -> (results)`")
    names, inits = _assigns(ctx, kid(tree, "scf_while_inits"), list(fn.inputs))
    before_n, after_n = kids(tree, "region")
    entry = [(n, t, loc) for (n, loc), t in zip(names, fn.inputs, strict=True)]
    before = ctx.region(before_n, entry_args=entry)
    after = ctx.region(after_n)
    return Op("scf.while", inits, list(fn.results), _attrs(ctx, tree, "attr_dict_with_keyword"),
              [before, after], loc=ctx.loc(tree))


@prints("scf.while")
def print_while(p: Any, op: Op) -> str:
    before = op.regions[0].entry
    s = "scf.while "
    if op.operands:
        s += "(" + ", ".join(f"{p.value(a)} = {p.value(v)}"
                             for a, v in zip(before.args, op.operands, strict=True)) + ") "
    fn = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    s += ": " + p.type(fn) + " " + _region(p, op.regions[0])
    s += " do " + _region(p, op.regions[1], entry_args=True)
    return s + attr_dict(p, op, keyword=True)


def _operands_typed(ctx: Any, tree: Tree) -> list[Value]:
    node = kid(tree, "scf_operands_typed")
    if node is None:
        return []
    return typed_uses(ctx, kid(node, "value_use_list"), _types(ctx, kid(node, "type_list")))


@builds("scf_condition")
def build_condition(ctx: Any, tree: Tree) -> Op:
    cond = typed_use(ctx, kid(tree, "value_use"), IntegerType(1))
    return Op("scf.condition", [cond, *_operands_typed(ctx, tree)], [], _attrs(ctx, tree),
              loc=ctx.loc(tree))


@prints("scf.condition")
def print_condition(p: Any, op: Op) -> str:
    cond, *args = op.operands
    s = f"scf.condition({p.value(cond)})" + attr_dict(p, op)
    return s + (" " + typed_values(p, args) if args else "")


@builds("scf_yield")
def build_yield(ctx: Any, tree: Tree) -> Op:
    return Op("scf.yield", _operands_typed(ctx, tree), [], _attrs(ctx, tree), loc=ctx.loc(tree))


@prints("scf.yield")
def print_yield(p: Any, op: Op) -> str:
    s = "scf.yield" + attr_dict(p, op)
    return s + (" " + typed_values(p, op.operands) if op.operands else "")


# -- scf.forall / in_parallel / tensor.parallel_insert_slice -----------------------------

def _paren_mixed(ctx: Any, node: Tree) -> list[int | Value]:
    return mixed(ctx, node, "scf_mixed_elts", "scf_mixed_elt")


@builds("scf_forall")
def build_forall(ctx: Any, tree: Tree) -> Op:
    iv_nodes = kids(kid(tree, "scf_iv_list"), "value_use")
    rng = kid(tree, "scf_forall_range")
    if rng is not None:
        lbs, ubs, steps = (_paren_mixed(ctx, n) for n in kids(rng, "scf_mixed_paren"))
    else:
        ubs = _paren_mixed(ctx, kid(kid(tree, "scf_forall_in"), "scf_mixed_paren"))
        lbs, steps = [0] * len(ubs), [1] * len(ubs)
    if not (len(lbs) == len(ubs) == len(steps) == len(iv_nodes)):
        ctx.error(tree, "scf.forall: bounds and induction variables differ in number")
    so = kid(tree, "scf_shared_outs")
    types = _types(ctx, kid(so, "scf_types")) if so is not None else []
    names, outs = _assigns(ctx, so, types)
    s_lb, d_lb = split_mixed(lbs)
    s_ub, d_ub = split_mixed(ubs)
    s_st, d_st = split_mixed(steps)
    entry = [(ssa_def_name(n), IndexType(), ctx.loc(n)) for n in iv_nodes]
    entry += [(n, t, loc) for (n, loc), t in zip(names, types, strict=True)]
    loc = ctx.loc(tree)
    region = ctx.region(kid(tree, "region"), entry_args=entry,
                        then=lambda r: ensure_terminator(r, "scf.forall.in_parallel", loc))
    attrs = _attrs(ctx, tree)
    attrs.update(operandSegmentSizes=segments(len(d_lb), len(d_ub), len(d_st), len(outs)),
                 staticLowerBound=s_lb, staticStep=s_st, staticUpperBound=s_ub)
    return Op("scf.forall", [*d_lb, *d_ub, *d_st, *outs], types, attrs, [region],
              loc=ctx.loc(tree))


@prints("scf.forall")
def print_forall(p: Any, op: Op) -> str:
    f = forall_parts(op)
    s = "scf.forall (" + p.values(f.ivs) + ")"
    if all(v == 0 for v in f.lbs) and all(v == 1 for v in f.steps):
        s += " in " + print_mixed(p, f.ubs, "(", ")")
    else:
        s += (" = " + print_mixed(p, f.lbs, "(", ")") + " to " + print_mixed(p, f.ubs, "(", ")")
              + " step " + print_mixed(p, f.steps, "(", ")"))
    if f.outputs:
        s += " shared_outs(" + ", ".join(
            f"{p.value(a)} = {p.value(v)}" for a, v in zip(f.shared_outs, f.outputs, strict=True))
        s += ")" + types_arrow(p, [r.type for r in op.results])
    term = bool(op.results) or not is_trivial_terminator(f.terminator, "scf.forall.in_parallel")
    s += " " + _region(p, op.regions[0], terminators=term)
    return s + attr_dict(p, op, ("operandSegmentSizes", "staticLowerBound",
                                 "staticUpperBound", "staticStep"))


@builds("scf_in_parallel")
def build_in_parallel(ctx: Any, tree: Tree) -> Op:
    region = ctx.region(kid(tree, "region"), then=ensure_block)
    return Op("scf.forall.in_parallel", [], [], _attrs(ctx, tree), [region], loc=ctx.loc(tree))


@prints("scf.forall.in_parallel")
def print_in_parallel(p: Any, op: Op) -> str:
    return "scf.forall.in_parallel " + _region(p, op.regions[0]) + attr_dict(p, op)


_SLICE_ELIDE = ("operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")


@builds("scf_parallel_insert_slice")
def build_parallel_insert_slice(ctx: Any, tree: Tree) -> Op:
    src, dst = (typed_use(ctx, n, t)
                for n, t in zip(kids(tree, "value_use"),
                                [ctx.type(x) for x in kids(tree, "type")], strict=True))
    offs, sizes, strides = (mixed(ctx, n, "scf_mixed_elts", "scf_mixed_elt")
                            for n in kids(tree, "scf_mixed_sq"))
    s_o, d_o = split_mixed(offs)
    s_s, d_s = split_mixed(sizes)
    s_t, d_t = split_mixed(strides)
    attrs = _attrs(ctx, tree)
    attrs.update(operandSegmentSizes=segments(1, 1, len(d_o), len(d_s), len(d_t)),
                 static_offsets=s_o, static_sizes=s_s, static_strides=s_t)
    return Op("tensor.parallel_insert_slice", [src, dst, *d_o, *d_s, *d_t], [], attrs,
              loc=ctx.loc(tree))


@prints("tensor.parallel_insert_slice")
def print_parallel_insert_slice(p: Any, op: Op) -> str:
    src, dst, offs, sizes, strides = parallel_insert_slice_params(op)
    s = f"tensor.parallel_insert_slice {p.value(src)} into {p.value(dst)}"
    s += print_mixed(p, offs) + " " + print_mixed(p, sizes) + " " + print_mixed(p, strides)
    s += attr_dict(p, op, _SLICE_ELIDE)
    return s + f" : {p.type(src.type)} into {p.type(dst.type)}"


# -- scf.execute_region / scf.index_switch ----------------------------------------------

@builds("scf_execute_region")
def build_execute_region(ctx: Any, tree: Tree) -> Op:
    types = _types(ctx, kid(tree, "scf_if_results"))
    attrs = {"no_inline": UnitAttr()} if has(tree, "scf_no_inline") else {}
    attrs.update(_attrs(ctx, tree))
    region = ctx.region(kid(tree, "region"))
    return Op("scf.execute_region", [], types, attrs, [region], loc=ctx.loc(tree))


@prints("scf.execute_region")
def print_execute_region(p: Any, op: Op) -> str:
    types = [r.type for r in op.results]
    s = "scf.execute_region" + (f" -> {p.type(types[0])}" if len(types) == 1 else types_arrow(p, types))
    if "no_inline" in op.attrs:
        s += " no_inline"
    return s + " " + _region(p, op.regions[0], entry_args=True) + attr_dict(p, op, ("no_inline",))


@builds("scf_index_switch")
def build_index_switch(ctx: Any, tree: Tree) -> Op:
    arg = typed_use(ctx, kid(tree, "value_use"), IndexType())
    res = kid(tree, "scf_switch_results")
    types = list(ctx.types(kid(res, "type_list"))) if res is not None else []
    cases, case_regions = [], []
    loc = ctx.loc(tree)

    def terminate(r: Region) -> None:
        ensure_terminator(r, "scf.yield", loc)

    for c in kids(tree, "scf_case"):
        cases.append(ctx.int64(kid(c, "integer")))
        case_regions.append(ctx.region(kid(c, "region"), then=terminate))
    default = ctx.region(kid(tree, "region"), then=terminate)
    attrs = {"cases": DenseArrayAttr("i64", tuple(cases))}
    attrs.update(_attrs(ctx, tree))
    return Op("scf.index_switch", [arg], types, attrs, [default, *case_regions],
              loc=ctx.loc(tree))


@prints("scf.index_switch")
def print_index_switch(p: Any, op: Op) -> str:
    s = "scf.index_switch " + p.value(op.operands[0])
    if op.results:
        s += " -> " + ", ".join(p.type(r.type) for r in op.results)
    # mlir-opt starts each case and the default on a line of its own
    sep = "\n" + "  " * p.indent if getattr(p, "mlir_opt", False) else " "
    for v, r in zip(static_values(op.attrs["cases"]), op.regions[1:], strict=True):
        s += f"{sep}case {v} " + _region(p, r)
    s += f"{sep}default " + _region(p, op.regions[0])
    return s + attr_dict(p, op, ("cases",))
