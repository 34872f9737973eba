"""tensor dialect: builders and printers for ``frontend/grammar/tensor.lark``.

Ops keep MLIR's operand order and property names (see ``--mlir-print-op-generic``):

* ``tensor.extract_slice``: operands ``[source, *offsets, *sizes, *strides]`` (dynamic entries
  only), ``static_offsets/static_sizes/static_strides`` as ``array<i64>`` with ``DYNAMIC``
  placeholders, ``operandSegmentSizes = array<i32: 1, n_off, n_size, n_stride>``.
* ``tensor.insert_slice``: ``[source, dest, *offsets, *sizes, *strides]``, segments
  ``[1, 1, n_off, n_size, n_stride]``.
* ``tensor.pad``: ``[source, *low, *high]``, ``static_low/static_high``, segments
  ``[1, n_low, n_high]``, optional unit ``nofold``; one region (index block args,
  ``tensor.yield`` terminator).
* ``tensor.expand_shape``: ``[src, *dynamic output_shape]``, ``reassociation`` (array of
  arrays), ``static_output_shape``; ``tensor.collapse_shape``: ``[src]``, ``reassociation``.

Helpers for the analysis: :func:`slice_params`, :func:`pad_params`,
:func:`expand_output_shape`, :func:`reassociation`, :func:`empty_sizes`,
:func:`mixed_list`, :func:`dest_operand`.
"""

from __future__ import annotations

from ..attrs import ArrayAttr, DenseArrayAttr, IntegerAttr, UnitAttr, dense_i64
from ..ir import Op, Value
from ..types import IndexType, IntegerType, TensorType, UnrankedTensorType
from . import DYNAMIC, builds, prints

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

# -- tree helpers (shared with linalg.py) ------------------------------------------------


def rule_name(node: Any) -> str:
    """The rule name of a lark Tree, or the token type of a Token."""
    data = getattr(node, "data", None)
    if data is not None:
        return str(data)
    return str(getattr(node, "type", ""))


def node_text(node: Any) -> str:
    """Concatenated text of every token below ``node``."""
    children = getattr(node, "children", None)
    if children is None:
        return str(node)
    return "".join(node_text(c) for c in children)


class Parts:
    """Children of a rule's tree grouped by rule name, in source order."""

    def __init__(self, tree: Any):
        self.tree = tree
        self.by_name: dict[str, list[Any]] = {}
        for c in getattr(tree, "children", []):
            if c is None:
                continue
            self.by_name.setdefault(rule_name(c), []).append(c)

    def all(self, name: str) -> list[Any]:
        return self.by_name.get(name, [])

    def one(self, name: str, i: int = 0) -> Any:
        xs = self.by_name.get(name, [])
        return xs[i] if i < len(xs) else None

    def has(self, name: str) -> bool:
        return bool(self.by_name.get(name))


def attr_dict_of(ctx: Any, node: Any) -> dict[str, Any]:
    if node is None:
        return {}
    return dict(ctx.attr_dict(node))


def typed_use(ctx: Any, node: Any, t: Any) -> Value:
    """Resolve a ``value_use`` whose type the syntax states; reject a mismatch like MLIR."""
    v = ctx.use(node, t)
    if t is not None and v.type is not None and v.type != t:
        ctx.error(node, f"use of value '{node_text(node).strip()}' expects different type than "
                        f"prior uses: '{t}' vs '{v.type}'")
    return v


def typed_uses(ctx: Any, node: Any, types: list[Any]) -> list[Value]:
    """A ``value_use_list`` (or None) with one stated type per value."""
    nodes = [] if node is None else [c for c in node.children if c is not None]
    if len(nodes) != len(types):
        ctx.error(node, f"{len(nodes)} operands present, but expected {len(types)}")
    return [typed_use(ctx, n, t) for n, t in zip(nodes, types, strict=True)]


def typed_uses_nodes(ctx: Any, nodes: list[Any], types: list[Any], at: Any) -> list[Value]:
    if len(nodes) != len(types):
        ctx.error(at, f"{len(nodes)} operands present, but expected {len(types)}")
    return [typed_use(ctx, n, t) for n, t in zip(nodes, types, strict=True)]


def index_uses(ctx: Any, node: Any) -> list[Value]:
    n = 0 if node is None else len([c for c in node.children if c is not None])
    return typed_uses(ctx, node, [IndexType()] * n)


def seg_sizes(*sizes: int) -> DenseArrayAttr:
    return DenseArrayAttr("i32", tuple(sizes))


def parse_mixed(ctx: Any, node: Any) -> tuple[list[int], list[Value]]:
    """``[%a, 4, %b]`` -> (static entries with DYNAMIC placeholders, dynamic Values)."""
    static: list[int] = []
    dyn: list[Value] = []
    for elt in getattr(node, "children", []):
        if elt is None:
            continue
        inner = elt.children[0] if rule_name(elt).endswith("_elt") else elt
        if node_text(inner).lstrip().startswith("%"):
            static.append(DYNAMIC)
            dyn.append(typed_use(ctx, inner, IndexType()))
        else:
            static.append(ctx.int64(inner))
    return static, dyn


def print_mixed(p: Any, static: Any, dyn: list[Value]) -> str:
    """Inverse of :func:`parse_mixed`: ``[%a, 4, %b]``."""
    it = iter(dyn)
    out = []
    for s in static_values(static):
        out.append(p.value(next(it)) if s == DYNAMIC else str(s))
    return "[" + ", ".join(out) + "]"


def static_values(a: Any) -> tuple[int, ...]:
    if a is None:
        return ()
    if isinstance(a, DenseArrayAttr):
        return tuple(a.values)
    if isinstance(a, ArrayAttr):
        return tuple(e.value for e in a.elems)
    return tuple(a)


def mixed_list(static: Any, dyn: list[Value]) -> list[int | Value]:
    """Merge a ``static_*`` array and its dynamic operands into a list of int | Value."""
    it = iter(dyn)
    return [next(it) if s == DYNAMIC else s for s in static_values(static)]


def segments(op: Op) -> list[list[Value]]:
    """The op's operands split by ``operandSegmentSizes``."""
    seg = op.attrs.get("operandSegmentSizes")
    ops = op.operands
    if seg is None:
        return [ops]
    out, i = [], 0
    for n in static_values(seg):
        out.append(ops[i:i + n])
        i += n
    return out


def attrs_suffix(p: Any, op: Op, elide: tuple[str, ...] = ()) -> str:
    """`` {a = 1}`` (with one leading space) or ``""``: the op's attributes minus ``elide``."""
    s = p.attr_dict(op, elide=tuple(elide))
    s = (s or "").strip()
    return " " + s if s else ""


def elem_type(t: Any) -> Any:
    return getattr(t, "elem", t)


# -- analysis helpers --------------------------------------------------------------------


def slice_params(op: Op) -> tuple[list[int | Value], list[int | Value], list[int | Value]]:
    """(offsets, sizes, strides) of ``tensor.extract_slice`` / ``tensor.insert_slice`` (and
    any op with the same ``static_*`` + trailing-segments representation, e.g.
    ``memref.subview``); each entry an int or the SSA Value."""
    segs = segments(op)
    offs, sizes, strides = segs[-3], segs[-2], segs[-1]
    return (mixed_list(op.attrs["static_offsets"], offs),
            mixed_list(op.attrs["static_sizes"], sizes),
            mixed_list(op.attrs["static_strides"], strides))


def pad_params(op: Op) -> tuple[list[int | Value], list[int | Value]]:
    """(low, high) padding of ``tensor.pad``, each entry an int or a Value."""
    _, low, high = segments(op)
    return mixed_list(op.attrs["static_low"], low), mixed_list(op.attrs["static_high"], high)


def expand_output_shape(op: Op) -> list[int | Value]:
    """The ``output_shape`` of ``tensor.expand_shape`` (int or Value per result dim)."""
    return mixed_list(op.attrs["static_output_shape"], op.operands[1:])


def reassociation(op: Op) -> list[list[int]]:
    """``[[0, 1], [2]]`` of expand_shape / collapse_shape as Python lists."""
    return [[e.value for e in g.elems] for g in op.attrs["reassociation"].elems]


def empty_sizes(op: Op) -> list[int | Value]:
    """Per-dimension size of a ``tensor.empty`` / ``tensor.generate`` / ``tensor.splat``
    result: the static size, or the SSA Value given for a dynamic dimension."""
    t = op.results[0].type
    dyn = op.operands[1:] if op.name == "tensor.splat" else op.operands
    it = iter(dyn)
    return [next(it) if d is None else d for d in t.shape]


def dest_operand(op: Op) -> Value | None:
    """The destination tensor a ``tensor.insert`` / ``tensor.insert_slice`` result is
    tied to (destination-passing style), else None."""
    if op.name in ("tensor.insert", "tensor.insert_slice"):
        return op.operands[1]
    return None


# -- builders ----------------------------------------------------------------------------

def _ad(ctx: Any, parts: Parts) -> dict[str, Any]:
    return attr_dict_of(ctx, parts.one("attr_dict"))


@builds("tensor_empty")
def _build_empty(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    return Op("tensor.empty", index_uses(ctx, ps.one("value_use_list")), [ctx.type(ps.one("type"))],
              _ad(ctx, ps), loc=ctx.loc(tree))


@builds("tensor_extract")
def _build_extract(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    t = ctx.type(ps.one("type"))
    if not isinstance(t, TensorType | UnrankedTensorType):
        ctx.error(tree, f"tensor.extract expects a tensor type, got {t}")
    src = typed_use(ctx, ps.one("value_use"), t)
    return Op("tensor.extract", [src, *index_uses(ctx, ps.one("value_use_list"))], [t.elem],
              _ad(ctx, ps), loc=ctx.loc(tree))


@builds("tensor_insert")
def _build_insert(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    t = ctx.type(ps.one("type"))
    if not isinstance(t, TensorType | UnrankedTensorType):
        ctx.error(tree, f"tensor.insert expects a tensor type, got {t}")
    sn, dn = ps.all("value_use")
    scalar, dest = typed_use(ctx, sn, t.elem), typed_use(ctx, dn, t)
    return Op("tensor.insert", [scalar, dest, *index_uses(ctx, ps.one("value_use_list"))], [t],
              _ad(ctx, ps), loc=ctx.loc(tree))


def _slice_attrs(ctx: Any, ps: Parts, lead: int) -> tuple[dict[str, Any], list[Value]]:
    (so, do), (ss, ds), (st, dt) = (parse_mixed(ctx, m) for m in ps.all("tensor_mixed"))
    attrs = {
        "operandSegmentSizes": seg_sizes(*([1] * lead), len(do), len(ds), len(dt)),
        "static_offsets": dense_i64(so),
        "static_sizes": dense_i64(ss),
        "static_strides": dense_i64(st),
    }
    attrs.update(_ad(ctx, ps))
    return attrs, [*do, *ds, *dt]


@builds("tensor_extract_slice")
def _build_extract_slice(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    src = typed_use(ctx, ps.one("value_use"), ctx.type(ps.one("type")))
    attrs, dyn = _slice_attrs(ctx, ps, 1)
    return Op("tensor.extract_slice", [src, *dyn], [ctx.type(ps.one("type", 1))], attrs,
              loc=ctx.loc(tree))


@builds("tensor_insert_slice")
def _build_insert_slice(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    src, dest = (typed_use(ctx, n, ctx.type(t))
                 for n, t in zip(ps.all("value_use"), ps.all("type"), strict=True))
    attrs, dyn = _slice_attrs(ctx, ps, 2)
    return Op("tensor.insert_slice", [src, dest, *dyn], [ctx.type(ps.one("type", 1))], attrs,
              loc=ctx.loc(tree))


def _i64_attr(ctx: Any, node: Any) -> IntegerAttr:
    """A reassociation index: an (untyped, i64) integer attribute."""
    return IntegerAttr(ctx.int_attr(node, IntegerType(64)).value)


def _reassoc(ctx: Any, node: Any) -> ArrayAttr:
    return ArrayAttr(tuple(
        ArrayAttr(tuple(_i64_attr(ctx, i) for i in g.children if i is not None))
        for g in node.children if g is not None))


@builds("tensor_expand_shape")
def _build_expand_shape(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    src = typed_use(ctx, ps.one("value_use"), ctx.type(ps.one("type")))
    static, dyn = parse_mixed(ctx, ps.one("tensor_mixed"))
    attrs = {"reassociation": _reassoc(ctx, ps.one("tensor_reassoc")),
             "static_output_shape": dense_i64(static)}
    attrs.update(_ad(ctx, ps))
    return Op("tensor.expand_shape", [src, *dyn], [ctx.type(ps.one("type", 1))], attrs,
              loc=ctx.loc(tree))


@builds("tensor_collapse_shape")
def _build_collapse_shape(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    attrs = {"reassociation": _reassoc(ctx, ps.one("tensor_reassoc"))}
    attrs.update(_ad(ctx, ps))
    return Op("tensor.collapse_shape", [typed_use(ctx, ps.one("value_use"), ctx.type(ps.one("type")))],
              [ctx.type(ps.one("type", 1))], attrs, loc=ctx.loc(tree))


@builds("tensor_pad")
def _build_pad(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    src = typed_use(ctx, ps.one("value_use"), ctx.type(ps.one("type")))
    (sl, dl), (sh, dh) = (parse_mixed(ctx, m) for m in ps.all("tensor_mixed"))
    attrs: dict[str, Any] = {}
    if ps.has("tensor_nofold"):
        attrs["nofold"] = UnitAttr()
    attrs["operandSegmentSizes"] = seg_sizes(1, len(dl), len(dh))
    attrs["static_high"] = dense_i64(sh)
    attrs["static_low"] = dense_i64(sl)
    attrs.update(_ad(ctx, ps))
    region = ctx.region(ps.one("region"))
    return Op("tensor.pad", [src, *dl, *dh], [ctx.type(ps.one("type", 1))], attrs, [region],
              loc=ctx.loc(tree))


def _build_unary_to(name: str) -> Any:
    def build(ctx: Any, tree: Any) -> Op:
        ps = Parts(tree)
        return Op(name, [typed_use(ctx, ps.one("value_use"), ctx.type(ps.one("type")))],
                  [ctx.type(ps.one("type", 1))],
                  _ad(ctx, ps), loc=ctx.loc(tree))
    return build


builds("tensor_cast")(_build_unary_to("tensor.cast"))
builds("tensor_bitcast")(_build_unary_to("tensor.bitcast"))


@builds("tensor_dim")
def _build_dim(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    sn, idn = ps.all("value_use")
    src, idx = typed_use(ctx, sn, ctx.type(ps.one("type"))), typed_use(ctx, idn, IndexType())
    return Op("tensor.dim", [src, idx], [IndexType()], _ad(ctx, ps), loc=ctx.loc(tree))


@builds("tensor_rank")
def _build_rank(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    src = typed_use(ctx, ps.one("value_use"), ctx.type(ps.one("type")))
    return Op("tensor.rank", [src], [IndexType()], _ad(ctx, ps),
              loc=ctx.loc(tree))


@builds("tensor_from_elements")
def _build_from_elements(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    t = ctx.type(ps.one("type"))
    node = ps.one("value_use_list")
    n = 0 if node is None else len(node.children)
    return Op("tensor.from_elements", typed_uses(ctx, node, [elem_type(t)] * n), [t],
              _ad(ctx, ps), loc=ctx.loc(tree))


@builds("tensor_generate")
def _build_generate(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    return Op("tensor.generate", index_uses(ctx, ps.one("value_use_list")),
              [ctx.type(ps.one("type"))], _ad(ctx, ps), [ctx.region(ps.one("region"))],
              loc=ctx.loc(tree))


@builds("tensor_concat")
def _build_concat(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    attrs = {"dim": ctx.int_attr(ps.one("integer"), IntegerType(64))}
    attrs.update(_ad(ctx, ps))
    ins = typed_uses(ctx, ps.one("value_use_list"), ctx.types(ps.one("type_list_parens")))
    return Op("tensor.concat", ins,
              [ctx.type(ps.one("type"))], attrs, loc=ctx.loc(tree))


@builds("tensor_reshape")
def _build_reshape(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    src, shape = typed_uses_nodes(ctx, ps.all("value_use"), ctx.types(ps.one("type_list_parens")),
                                  tree)
    return Op("tensor.reshape", [src, shape], [ctx.type(ps.one("type"))], _ad(ctx, ps),
              loc=ctx.loc(tree))


@builds("tensor_splat")
def _build_splat(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    sizes = ps.one("tensor_splat_sizes")
    dyn = index_uses(ctx, sizes.children[0]) if sizes is not None else []
    t = ctx.type(ps.one("type"))
    return Op("tensor.splat", [typed_use(ctx, ps.one("value_use"), elem_type(t)), *dyn], [t],
              _ad(ctx, ps), loc=ctx.loc(tree))


@builds("tensor_yield")
def _build_yield(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    v = typed_use(ctx, ps.one("value_use"), ctx.type(ps.one("type")))
    return Op("tensor.yield", [v], [], _ad(ctx, ps),
              loc=ctx.loc(tree))


# -- printers ----------------------------------------------------------------------------

_SLICE_PROPS = ("operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")


def _slice_lists(p: Any, op: Op) -> str:
    segs = segments(op)
    return " ".join(print_mixed(p, op.attrs[k], d) for k, d in zip(
        ("static_offsets", "static_sizes", "static_strides"), segs[-3:], strict=True))


@prints("tensor.empty")
def _print_empty(p: Any, op: Op) -> str:
    return (f"tensor.empty({p.values(op.operands)}){attrs_suffix(p, op)} : "
            f"{p.type(op.results[0].type)}")


@prints("tensor.extract")
def _print_extract(p: Any, op: Op) -> str:
    src, *idx = op.operands
    return f"tensor.extract {p.value(src)}[{p.values(idx)}]{attrs_suffix(p, op)} : {p.type(src.type)}"


@prints("tensor.insert")
def _print_insert(p: Any, op: Op) -> str:
    scalar, dest, *idx = op.operands
    return (f"tensor.insert {p.value(scalar)} into {p.value(dest)}[{p.values(idx)}]"
            f"{attrs_suffix(p, op)} : {p.type(dest.type)}")


@prints("tensor.extract_slice")
def _print_extract_slice(p: Any, op: Op) -> str:
    src = op.operands[0]
    return (f"tensor.extract_slice {p.value(src)}{_slice_lists(p, op)}"
            f"{attrs_suffix(p, op, _SLICE_PROPS)} : {p.type(src.type)} to "
            f"{p.type(op.results[0].type)}")


@prints("tensor.insert_slice")
def _print_insert_slice(p: Any, op: Op) -> str:
    src, dest = op.operands[:2]
    return (f"tensor.insert_slice {p.value(src)} into {p.value(dest)}{_slice_lists(p, op)}"
            f"{attrs_suffix(p, op, _SLICE_PROPS)} : {p.type(src.type)} into {p.type(dest.type)}")


@prints("tensor.expand_shape")
def _print_expand_shape(p: Any, op: Op) -> str:
    src, *dyn = op.operands
    shape = print_mixed(p, op.attrs["static_output_shape"], dyn)
    return (f"tensor.expand_shape {p.value(src)} {op.attrs['reassociation']} output_shape "
            f"{shape}{attrs_suffix(p, op, ('reassociation', 'static_output_shape'))} : "
            f"{p.type(src.type)} into {p.type(op.results[0].type)}")


@prints("tensor.collapse_shape")
def _print_collapse_shape(p: Any, op: Op) -> str:
    src = op.operands[0]
    return (f"tensor.collapse_shape {p.value(src)} {op.attrs['reassociation']}"
            f"{attrs_suffix(p, op, ('reassociation',))} : {p.type(src.type)} into "
            f"{p.type(op.results[0].type)}")


@prints("tensor.pad")
def _print_pad(p: Any, op: Op) -> str:
    src, low, high = segments(op)
    nofold = " nofold" if "nofold" in op.attrs else ""
    return (f"tensor.pad {p.value(src[0])}{nofold} low"
            f"{print_mixed(p, op.attrs['static_low'], low)} high"
            f"{print_mixed(p, op.attrs['static_high'], high)} "
            f"{p.region(op.regions[0], entry_args=True)}"
            f"{attrs_suffix(p, op, ('nofold', 'operandSegmentSizes', 'static_low', 'static_high'))}"
            f" : {p.type(src[0].type)} to {p.type(op.results[0].type)}")


def _print_unary_to(name: str) -> Any:
    def pr(p: Any, op: Op) -> str:
        src = op.operands[0]
        return (f"{name} {p.value(src)}{attrs_suffix(p, op)} : {p.type(src.type)} to "
                f"{p.type(op.results[0].type)}")
    return pr


prints("tensor.cast")(_print_unary_to("tensor.cast"))
prints("tensor.bitcast")(_print_unary_to("tensor.bitcast"))


@prints("tensor.dim")
def _print_dim(p: Any, op: Op) -> str:
    src, idx = op.operands
    return f"tensor.dim{attrs_suffix(p, op)} {p.value(src)}, {p.value(idx)} : {p.type(src.type)}"


@prints("tensor.rank")
def _print_rank(p: Any, op: Op) -> str:
    src = op.operands[0]
    return f"tensor.rank {p.value(src)}{attrs_suffix(p, op)} : {p.type(src.type)}"


@prints("tensor.from_elements")
def _print_from_elements(p: Any, op: Op) -> str:
    vals = p.values(op.operands)
    return (f"tensor.from_elements{' ' if vals else ''}{vals}{attrs_suffix(p, op)} : "
            f"{p.type(op.results[0].type)}")


@prints("tensor.generate")
def _print_generate(p: Any, op: Op) -> str:
    vals = p.values(op.operands)
    return (f"tensor.generate{' ' if vals else ''}{vals} "
            f"{p.region(op.regions[0], entry_args=True)}{attrs_suffix(p, op)} : "
            f"{p.type(op.results[0].type)}")


@prints("tensor.concat")
def _print_concat(p: Any, op: Op) -> str:
    ins = ", ".join(p.type(v.type) for v in op.operands)
    return (f"tensor.concat dim({op.attrs['dim'].value}) {p.values(op.operands)}"
            f"{attrs_suffix(p, op, ('dim',))} : ({ins}) -> {p.type(op.results[0].type)}")


@prints("tensor.reshape")
def _print_reshape(p: Any, op: Op) -> str:
    src, shape = op.operands
    return (f"tensor.reshape {p.value(src)}({p.value(shape)}){attrs_suffix(p, op)} : "
            f"({p.type(src.type)}, {p.type(shape.type)}) -> {p.type(op.results[0].type)}")


@prints("tensor.splat")
def _print_splat(p: Any, op: Op) -> str:
    val, *dyn = op.operands
    sizes = f"[{p.values(dyn)}]" if dyn else ""
    return (f"tensor.splat {p.value(val)}{sizes}{attrs_suffix(p, op)} : "
            f"{p.type(op.results[0].type)}")


@prints("tensor.yield")
def _print_yield(p: Any, op: Op) -> str:
    v = op.operands[0]
    return f"tensor.yield {p.value(v)}{attrs_suffix(p, op)} : {p.type(v.type)}"
