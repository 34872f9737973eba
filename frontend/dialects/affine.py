"""affine dialect: custom assembly of affine.apply / min / max / for / if / load / store /
yield. Grammar: ``grammar/affine.lark``; maps and sets: ``frontend/affine.py``.

Representation follows MLIR's generic form: affine.apply / min / max have the operands
of their ``map`` (dimensions, then symbols); affine.for has ``lowerBoundMap``,
``upperBoundMap``, ``step`` (an ``index`` integer) and ``operandSegmentSizes`` [lower
bound operands, upper bound operands, inits], one region with the body block ``(iv,
*iter_args)``; affine.if has ``condition`` and regions ``[then, else]`` (an empty else
region when absent); affine.load has operands ``[memref, *map operands]`` and
affine.store ``[value, memref, *map operands]``, each with ``map``. An SSA loop bound is
the map ``()[s0] -> (s0)``, an integer bound ``() -> (N)``; subscripts written over SSA
names (``%m[%i + 1, symbol(%n)]``) become a map whose dimensions are the plain names and
whose symbols the ``symbol(..)`` names, each in order of first appearance. Implicit
``affine.yield`` terminators are materialised as MLIR does.
"""

from __future__ import annotations

from ..affine import (
    SYMBOL_IDENTITY,
    AffineError,
    constant_map,
    parse_ssa_map,
    ssa_map_text,
)
from ..attrs import AffineMapAttr, IntegerAttr, IntegerSetAttr
from ..ir import Op, Region, Value
from ..syntax_tree import Token, Tree
from ..types import IndexType, MemRefType
from . import builds, prints
from ._smb import (
    attr_dict,
    ensure_terminator,
    is_trivial_terminator,
    kid,
    kids,
    segment,
    segments,
    ssa_def_name,
    typed_use,
    typed_uses,
)

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

_INDEX = IndexType()

# -- helpers for the analysis ----------------------------------------------------------


def access_parts(op: Op) -> tuple[Value, list[Value]]:
    """(memref, map operands) of affine.load / affine.store."""
    at = 1 if op.name == "affine.store" else 0
    return op.operands[at], op.operands[at + 1:]


def for_bounds(op: Op) -> tuple[list[Value], list[Value], list[Value]]:
    """(lower bound operands, upper bound operands, inits) of affine.for."""
    return segment(op, 0), segment(op, 1), segment(op, 2)


# -- tree helpers ----------------------------------------------------------------------

def _attrs(ctx: Any, tree: Tree) -> dict[str, Any]:
    node = kid(tree, "attr_dict")
    return dict(ctx.attr_dict(node)) if node is not None else {}


def _ref(ctx: Any, node: Tree, kind: type) -> tuple[Any, Token]:
    """The map / set of an ``affine_map_ref`` / ``affine_set_ref`` (a literal or an
    alias of one) and its token."""
    tok = node.children[0]
    if tok.type == "HASH_ATTR":
        a = ctx.attr(Tree("hash_attr", [tok], tok))
    else:
        rule = "affine_map_attr" if tok.type == "AFFINE_MAP" else "affine_set_attr"
        a = ctx.attr(Tree(rule, [tok], tok))
    if not isinstance(a, kind):
        ctx.error(tok, f"custom op '{ctx.op_name}' invalid kind of attribute specified")
    return a, tok


def _dims(ctx: Any, node: Tree) -> tuple[list[Value], list[Value]]:
    """(dimension operands, symbol operands) of an ``affine_dims`` node, as indices."""
    d = kid(node, "value_use_list")
    syms = kid(node, "affine_syms")
    s = kid(syms, "value_use_list") if syms is not None else None
    dims = typed_uses(ctx, d, [_INDEX] * len(d.children)) if d is not None else []
    return dims, (typed_uses(ctx, s, [_INDEX] * len(s.children)) if s is not None else [])


def _print_dims(p: Any, operands: list[Value], n_dims: int) -> str:
    s = "(" + p.values(operands[:n_dims]) + ")"
    if len(operands) > n_dims:
        s += "[" + p.values(operands[n_dims:]) + "]"
    return s


def _types(ctx: Any, node: Tree | None) -> list[Any]:
    if node is None:
        return []
    c = node.children[0]
    if c.data == "type_list_parens":
        return list(ctx.types(c))
    return [ctx.type(c)]


def _name_error(ctx: Any, tree: Tree, msg: str) -> None:
    """A parse error at the op's name (mlir-opt's ``getNameLoc``)."""
    raise ctx.error(tree, msg)


# -- affine.apply / min / max ------------------------------------------------------------

def _map_op(name: str, ctx: Any, tree: Tree) -> Op:
    attr, _tok = _ref(ctx, kid(tree, "affine_map_ref"), AffineMapAttr)
    dims, syms = _dims(ctx, kid(tree, "affine_dims"))
    m = attr.map
    if name == "affine.apply" and (m.num_dims != len(dims)
                                   or m.num_dims + m.num_syms != len(dims) + len(syms)):
        _name_error(ctx, tree, "dimension or symbol index mismatch")
    attrs = {"map": attr}
    attrs.update(_attrs(ctx, tree))
    n_results = len(m.results) if name == "affine.apply" else 1
    return Op(name, [*dims, *syms], [_INDEX] * n_results, attrs, loc=ctx.loc(tree))


@builds("affine_apply")
def build_apply(ctx: Any, tree: Tree) -> Op:
    return _map_op("affine.apply", ctx, tree)


@builds("affine_min")
def build_min(ctx: Any, tree: Tree) -> Op:
    return _map_op("affine.min", ctx, tree)


@builds("affine_max")
def build_max(ctx: Any, tree: Tree) -> Op:
    return _map_op("affine.max", ctx, tree)


def _print_map_op(p: Any, op: Op) -> str:
    attr = op.attrs.get("map")
    if not isinstance(attr, AffineMapAttr):
        return p.generic_op(op)
    return (f"{op.name} {p.attr(attr)}" + _print_dims(p, op.operands, attr.map.num_dims)
            + attr_dict(p, op, ("map",)))


for _n in ("affine.apply", "affine.min", "affine.max"):
    prints(_n)(_print_map_op)


# -- affine.for --------------------------------------------------------------------------

def _bound(ctx: Any, tree: Tree, node: Tree, lower: bool) -> tuple[AffineMapAttr, list[Value]]:
    kw = kid(node, "affine_max_kw" if lower else "affine_min_kw")
    b = kid(node, "affine_bound")
    first = b.children[0]
    if first.data == "value_use":
        return AffineMapAttr(SYMBOL_IDENTITY.text()), [typed_use(ctx, first, _INDEX)]
    if first.data == "affine_int":
        return AffineMapAttr(constant_map(ctx.int64(first.children[0])).text()), []
    attr, tok = _ref(ctx, first, AffineMapAttr)
    dims, syms = _dims(ctx, kid(b, "affine_dims"))
    m = attr.map
    if m.num_dims != len(dims):
        _name_error(ctx, tree, "dim operand count and affine map dim count must match")
    if m.num_dims + m.num_syms != len(dims) + len(syms):
        _name_error(ctx, tree, "symbol operand count and affine map symbol count must "
                               "match")
    if len(m.results) > 1 and kw is None:
        which = "lower" if lower else "upper"
        prefix = "max" if lower else "min"
        ctx.error(tok, f"{which} loop bound affine map with multiple results requires "
                       f"'{prefix}' prefix")
    return attr, [*dims, *syms]


@builds("affine_for")
def build_for(ctx: Any, tree: Tree) -> Op:
    iv = kid(tree, "value_use")
    lb_map, lbs = _bound(ctx, tree, kid(tree, "affine_lower"), True)
    ub_map, ubs = _bound(ctx, tree, kid(tree, "affine_upper"), False)
    step = 1
    st = kid(tree, "affine_step")
    if st is not None:
        step = ctx.int64(st.children[0])
        if step < 0:
            ctx.error(st.children[0], "expected step to be representable as a positive "
                                      "signed integer")
    it = kid(tree, "affine_iter_args")
    types = _types(ctx, kid(it, "affine_types")) if it is not None else []
    names, inits = [], []
    if it is not None:
        assigns = kids(it, "affine_assign")
        if len(assigns) != len(types):
            _name_error(ctx, tree, "mismatch between the number of loop-carried values "
                                   "and results")
        for a, t in zip(assigns, types, strict=True):
            d, u = kids(a, "value_use")
            names.append((ssa_def_name(d), t, ctx.loc(d)))
            inits.append(typed_use(ctx, u, t))
    entry = [(ssa_def_name(iv), _INDEX, ctx.loc(iv)), *names]
    loc = ctx.loc(tree)
    region = ctx.region(kid(tree, "region"), entry_args=entry,
                        then=lambda r: ensure_terminator(r, "affine.yield", loc))
    attrs: dict[str, Any] = {
        "lowerBoundMap": lb_map,
        "operandSegmentSizes": segments(len(lbs), len(ubs), len(inits)),
        "step": IntegerAttr(step, _INDEX),
        "upperBoundMap": ub_map,
    }
    attrs.update(_attrs(ctx, tree))
    return Op("affine.for", [*lbs, *ubs, *inits], types, attrs, [region], loc=loc)


def _print_bound(p: Any, attr: Any, operands: list[Value], prefix: str) -> str:
    m = attr.map
    if len(m.results) == 1:
        c = m.constant_results()
        if m.num_inputs == 0 and c is not None:
            return str(c[0])
        if m.num_dims == 0 and m.num_syms == 1 and m.simplified[0] == ("s", 0):
            return p.value(operands[0])
        head = ""
    else:
        head = prefix + " "
    return head + p.attr(attr) + _print_dims(p, operands, m.num_dims)


@prints("affine.for")
def print_for(p: Any, op: Op) -> str:
    lb, ub = op.attrs.get("lowerBoundMap"), op.attrs.get("upperBoundMap")
    step = op.attrs.get("step")
    if not (isinstance(lb, AffineMapAttr) and isinstance(ub, AffineMapAttr)
            and isinstance(step, IntegerAttr) and "operandSegmentSizes" in op.attrs
            and op.regions and op.regions[0].blocks):
        return p.generic_op(op)
    lbs, ubs, inits = for_bounds(op)
    body = op.regions[0].entry
    s = (f"affine.for {p.value(body.args[0])} = {_print_bound(p, lb, lbs, 'max')} to "
         f"{_print_bound(p, ub, ubs, 'min')}")
    if step.value != 1:
        s += f" step {step.value}"
    if inits:
        s += " iter_args(" + ", ".join(f"{p.value(a)} = {p.value(v)}"
                                       for a, v in zip(body.args[1:], inits, strict=True))
        s += ") -> (" + ", ".join(p.type(r.type) for r in op.results) + ")"
    elide = not inits and is_trivial_terminator(body.terminator, "affine.yield")
    s += " " + p.region(op.regions[0], entry_args=False, elide_terminator=elide)
    return s + attr_dict(p, op, ("lowerBoundMap", "upperBoundMap", "step",
                                 "operandSegmentSizes"))


# -- affine.if ----------------------------------------------------------------------------

@builds("affine_if")
def build_if(ctx: Any, tree: Tree) -> Op:
    attr, _tok = _ref(ctx, kid(tree, "affine_set_ref"), IntegerSetAttr)
    dims, syms = _dims(ctx, kid(tree, "affine_dims"))
    s = attr.set
    if s.num_dims != len(dims):
        _name_error(ctx, tree, "dim operand count and integer set dim count must match")
    if s.num_dims + s.num_syms != len(dims) + len(syms):
        _name_error(ctx, tree, "symbol operand count and integer set symbol count must "
                               "match")
    res = kid(tree, "affine_if_results")
    types = _types(ctx, kid(res, "affine_types")) if res is not None else []
    loc = ctx.loc(tree)
    then_r = ctx.region(kid(tree, "region"),
                        then=lambda r: ensure_terminator(r, "affine.yield", loc))
    els = kid(tree, "affine_else")
    if els is not None:
        else_r = ctx.region(kid(els, "region"),
                            then=lambda r: ensure_terminator(r, "affine.yield", loc))
    else:
        else_r = Region()
    attrs: dict[str, Any] = {"condition": attr}
    attrs.update(_attrs(ctx, tree))
    return Op("affine.if", [*dims, *syms], types, attrs, [then_r, else_r], loc=loc)


@prints("affine.if")
def print_if(p: Any, op: Op) -> str:
    cond = op.attrs.get("condition")
    if not isinstance(cond, IntegerSetAttr) or len(op.regions) != 2 \
            or not op.regions[0].blocks:
        return p.generic_op(op)
    s = "affine.if " + p.attr(cond) + _print_dims(p, op.operands, cond.set.num_dims)
    if len(op.results) == 1:
        s += " -> " + p.type(op.results[0].type)
    elif op.results:
        s += " -> (" + ", ".join(p.type(r.type) for r in op.results) + ")"
    for i, r in enumerate(op.regions):
        if not r.blocks:
            continue
        elide = not op.results and is_trivial_terminator(r.entry.terminator, "affine.yield")
        s += (" else " if i else " ") + p.region(r, entry_args=False, elide_terminator=elide)
    return s + attr_dict(p, op, ("condition",))


# -- affine.load / affine.store ------------------------------------------------------------

def _access(ctx: Any, tok: Token, mem_type: Any) -> tuple[Value, AffineMapAttr, list[Value]]:
    """The memref and subscripts of an ``AFFINE_ACCESS`` token: (memref, map, map
    operands); the names resolve as index values at their place in the token."""
    text = str(tok)
    at = text.index("[")
    name = text[:at].rstrip()
    m_tok = Token("VALUE_ID", name, tok.start_pos, tok.line, tok.column)
    mem = typed_use(ctx, m_tok, mem_type)
    try:
        m, ids = parse_ssa_map(text[at:])
    except AffineError as e:
        ctx.text_error(tok, at, e)
    operands = []
    for n, _is_sym, off in ids:
        loc = ctx.loc_in(tok, at + off)
        operands.append(ctx.use(Token("VALUE_ID", n, None, loc.line, loc.col), _INDEX))
    return mem, AffineMapAttr(m.text()), operands


def _memref_type(ctx: Any, tree: Tree) -> Any:
    node = kid(tree, "type")
    t = ctx.type(node)
    if not isinstance(t, MemRefType):
        ctx.error(node, f"invalid kind of type specified: expected builtin.memref, but "
                        f"found '{t}'")
    return t


@builds("affine_load")
def build_load(ctx: Any, tree: Tree) -> Op:
    t = _memref_type(ctx, tree)
    tok = next(c for c in tree.children if isinstance(c, Token))
    mem, m, operands = _access(ctx, tok, t)
    attrs: dict[str, Any] = {"map": m}
    attrs.update(_attrs(ctx, tree))
    return Op("affine.load", [mem, *operands], [t.elem], attrs, loc=ctx.loc(tree))


@builds("affine_store")
def build_store(ctx: Any, tree: Tree) -> Op:
    t = _memref_type(ctx, tree)
    tok = next(c for c in tree.children if isinstance(c, Token))
    v = typed_use(ctx, kid(tree, "value_use"), t.elem)
    mem, m, operands = _access(ctx, tok, t)
    attrs: dict[str, Any] = {"map": m}
    attrs.update(_attrs(ctx, tree))
    return Op("affine.store", [v, mem, *operands], [], attrs, loc=ctx.loc(tree))


def _print_access(p: Any, op: Op) -> str:
    mem, operands = access_parts(op)
    attr = op.attrs.get("map")
    m = attr.map
    names = [p.value(v) for v in operands]
    return (f"{p.value(mem)}[" + ssa_map_text(m, names[:m.num_dims], names[m.num_dims:])
            + "]" + attr_dict(p, op, ("map",)) + " : " + p.type(mem.type))


def _access_printable(op: Op, at: int) -> bool:
    attr = op.attrs.get("map")
    return (isinstance(attr, AffineMapAttr) and len(op.operands) > at
            and attr.map.num_inputs == len(op.operands) - at - 1)


@prints("affine.load")
def print_load(p: Any, op: Op) -> str:
    if not _access_printable(op, 0):
        return p.generic_op(op)
    return "affine.load " + _print_access(p, op)


@prints("affine.store")
def print_store(p: Any, op: Op) -> str:
    if not _access_printable(op, 1):
        return p.generic_op(op)
    return f"affine.store {p.value(op.operands[0])}, " + _print_access(p, op)


# -- affine.yield ----------------------------------------------------------------------------

@builds("affine_yield")
def build_yield(ctx: Any, tree: Tree) -> Op:
    node = kid(tree, "affine_yield_operands")
    vals: list[Value] = []
    if node is not None:
        types = ctx.types(kid(node, "type_list"))
        vals = typed_uses(ctx, kid(node, "value_use_list"), types)
    return Op("affine.yield", vals, [], _attrs(ctx, tree), loc=ctx.loc(tree))


@prints("affine.yield")
def print_yield(p: Any, op: Op) -> str:
    s = "affine.yield" + attr_dict(p, op)
    if op.operands:
        s += " " + p.values(op.operands) + " : " + ", ".join(p.type(v.type) for v in op.operands)
    return s

