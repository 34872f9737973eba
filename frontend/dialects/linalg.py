"""linalg dialect: builders and printers for ``frontend/grammar/linalg.lark``.

Representation (as in MLIR's generic form):

* Structured ops with ins/outs (``linalg.generic`` and every named op: ``matmul``,
  ``fill``, ``conv_2d_*``, ``pooling_*``, ``add``, ``elementwise``, ...): operands
  ``[*ins, *outs]``, ``operandSegmentSizes = array<i32: n_ins, n_outs>``; results are the
  ``-> T`` types (none on memrefs).  ``linalg.generic`` keeps ``indexing_maps``,
  ``iterator_types`` (``#linalg.iterator_type<parallel>`` entries), optional ``doc`` /
  ``library_call`` and its region; its ``attrs = {..}`` entries are ordinary attributes.
  Named ops keep whatever attributes were written (``indexing_maps``, ``cast``, ``kind``,
  ``dilations``, ``strides``, ...) and NO region: MLIR's implicit body is not modelled;
  ``print --generic`` synthesizes it (and default ``indexing_maps``, the maps cache)
  from the tables in ``linalg_bodies.py``. A named op parsed from the generic form keeps
  the region it was written with; the custom printer leaves it out when it is the
  implicit body (and prints the op generically when it is not).
* ``linalg.transpose`` / ``linalg.broadcast``: ``[input, init]``, ``permutation`` /
  ``dimensions`` as ``array<i64>``; result = init's type when it is a tensor.
* ``linalg.map``: ``[*inputs, init]``; ``linalg.reduce``: ``[*inputs, *inits]`` and
  ``dimensions``; both with their region (short forms ``{ arith.addf }`` are expanded).
* ``linalg.index``: property ``dim``; ``linalg.yield``: its operands.

Helpers for the analysis: :func:`linalg_ins_outs`, :func:`tied_result`, :func:`tied_init`,
:func:`iterator_types`, :func:`is_structured`, :data:`NAMED_OPS`.
"""

from __future__ import annotations

from ..attrs import ArrayAttr, OpaqueAttr, StringAttr, dense_i64
from ..ir import Block, Op, Region, Value
from ..types import IntegerType, TensorType, UnrankedTensorType
from . import builds, linalg_bodies, prints
from .tensor import (
    Parts,
    attr_dict_of,
    attrs_suffix,
    node_text,
    rule_name,
    seg_sizes,
    static_values,
    typed_uses,
)

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

# -- the named structured ops: one grammar rule, one builder, one printer ----------------

_ELEMENTWISE = (
    "abs add ceil div div_unsigned erf exp floor log max min mul negf powf reciprocal "
    "round rsqrt select sqrt square sub tanh"
)
_CONTRACTIONS = (
    "batch_matmul batch_matvec batch_mmt4d batch_reduce_matmul batch_vecmat contract dot "
    "matmul matvec mmt4d quantized_batch_matmul quantized_matmul vecmat"
)
_CONVS = (
    "conv_1d conv_2d conv_3d conv_1d_ncw_fcw conv_1d_nwc_wcf conv_2d_nchw_fchw "
    "conv_2d_nchw_fchw_q conv_2d_ngchw_fgchw conv_2d_ngchw_gfchw conv_2d_ngchw_gfchw_q "
    "conv_2d_nhwc_fhwc conv_2d_nhwc_fhwc_q conv_2d_nhwc_hwcf conv_2d_nhwc_hwcf_q "
    "conv_2d_nhwgc_gfhwc conv_2d_nhwgc_gfhwc_q conv_3d_ncdhw_fcdhw conv_3d_ndhwc_dhwcf "
    "conv_3d_ndhwc_dhwcf_q depthwise_conv_1d_ncw_cw depthwise_conv_1d_nwc_wc "
    "depthwise_conv_1d_nwc_wcm depthwise_conv_2d_nchw_chw depthwise_conv_2d_nhwc_hwc "
    "depthwise_conv_2d_nhwc_hwc_q depthwise_conv_2d_nhwc_hwcm depthwise_conv_2d_nhwc_hwcm_q "
    "depthwise_conv_3d_ncdhw_cdhw depthwise_conv_3d_ndhwc_dhwc depthwise_conv_3d_ndhwc_dhwcm"
)
_POOLINGS = (
    "pooling_nchw_max pooling_nchw_sum pooling_ncw_max pooling_ncw_sum pooling_ndhwc_max "
    "pooling_ndhwc_min pooling_ndhwc_sum pooling_nhwc_max pooling_nhwc_max_unsigned "
    "pooling_nhwc_min pooling_nhwc_min_unsigned pooling_nhwc_sum pooling_nwc_max "
    "pooling_nwc_max_unsigned pooling_nwc_min pooling_nwc_min_unsigned pooling_nwc_sum"
)
_OTHERS = "copy elementwise fill fill_rng_2d"

#: Every op parsed and printed by the shared named-op rule (``linalg.<name>``).
NAMED_OPS: frozenset[str] = frozenset(
    "linalg." + n for group in (_ELEMENTWISE, _CONTRACTIONS, _CONVS, _POOLINGS, _OTHERS)
    for n in group.split())

#: Keyword-introduced properties printed before the attr dict of a named op, in order.
_NAMED_KEYWORDS = ("kind", "indexing_maps")

#: linalg.generic's properties, printed in its leading dictionary.
_GENERIC_PROPS = ("doc", "indexing_maps", "iterator_types", "library_call")

_ITER_PREFIX = "#linalg.iterator_type<"


# -- analysis helpers --------------------------------------------------------------------


def is_structured(op: Op) -> bool:
    """True for ops with DPS ins/outs operands (generic, named ops, transpose, ...)."""
    return op.name in NAMED_OPS or op.name in (
        "linalg.generic", "linalg.transpose", "linalg.broadcast", "linalg.map", "linalg.reduce")


def linalg_ins_outs(op: Op) -> tuple[list[Value], list[Value]]:
    """(ins, outs) operands of a linalg structured op, per ``operandSegmentSizes`` where
    MLIR has it, else per the op's fixed operand structure."""
    ops = op.operands
    seg = op.attrs.get("operandSegmentSizes")
    if seg is not None:
        n_in, n_out = static_values(seg)
        return ops[:n_in], ops[n_in:n_in + n_out]
    if op.name in ("linalg.transpose", "linalg.broadcast", "linalg.map"):
        return ops[:-1], ops[-1:]
    if op.name == "linalg.reduce":
        half = len(ops) // 2
        return ops[:half], ops[half:]
    raise ValueError(f"{op.name} is not a linalg structured op")


def tied_result(op: Op, operand_index: int) -> Value | None:
    """The result tied to operand #``operand_index`` when it is a tensor ``outs`` operand
    (by position: the same value may appear twice), else None."""
    ins, outs = linalg_ins_outs(op)
    k = 0
    for i, v in enumerate(outs, start=len(ins)):
        if isinstance(v.type, TensorType | UnrankedTensorType):
            if i == operand_index:
                return op.results[k] if k < len(op.results) else None
            k += 1
    return None


def tied_init(result: Value) -> Value | None:
    """The ``outs`` operand a structured op's tensor result is tied to, or None."""
    op = getattr(result, "op", None)
    if op is None or not is_structured(op):
        return None
    tensor_outs = [v for v in linalg_ins_outs(op)[1]
                   if isinstance(v.type, TensorType | UnrankedTensorType)]
    return tensor_outs[result.index] if result.index < len(tensor_outs) else None


def iterator_types(op: Op) -> list[str]:
    """``["parallel", "reduction", ...]`` of a ``linalg.generic``."""
    return [_iter_name(a) for a in op.attrs["iterator_types"].elems]


def _iter_name(a: Any) -> str:
    if isinstance(a, StringAttr):
        return a.value
    s = str(a)
    return s[len(_ITER_PREFIX):-1] if s.startswith(_ITER_PREFIX) else s


def _iter_attr(a: Any) -> Any:
    return OpaqueAttr(f"{_ITER_PREFIX}{_iter_name(a)}>")


def _tensor_results(outs: list[Value]) -> list[Any]:
    return [v.type for v in outs if isinstance(v.type, TensorType | UnrankedTensorType)]


# -- builders ----------------------------------------------------------------------------


def _ins_outs(ctx: Any, ps: Parts) -> tuple[list[Value], list[Value]]:
    """``ins(..)`` / ``outs(..)`` operands, each checked against its stated type."""
    out = []
    for name in ("linalg_ins", "linalg_outs"):
        node = ps.one(name)
        if node is None:
            out.append([])
            continue
        sub = Parts(node)
        out.append(typed_uses(ctx, sub.one("value_use_list"), ctx.types(sub.one("type_list"))))
    return out[0], out[1]


def _results(ctx: Any, ps: Parts) -> list[Any]:
    node = ps.one("linalg_results")
    if node is None:
        return []
    inner = node.children[0]
    if rule_name(inner) == "type":
        return [ctx.type(inner)]
    return [ctx.type(t) for t in _find_all(inner, "type")]


def _checked_results(ctx: Any, tree: Any, ps: Parts, outs: list[Value]) -> list[Any]:
    """The ``-> T`` result types; one per tensor ``outs`` operand, matching its type."""
    res = _results(ctx, ps)
    want = _tensor_results(outs)
    if res != want:
        ctx.error(tree, "result types must match the tensor outs operands: expected "
                        f"({', '.join(map(str, want))}), got ({', '.join(map(str, res))})")
    return res


def _find_all(node: Any, name: str) -> list[Any]:
    out = []
    for c in getattr(node, "children", []):
        if rule_name(c) == name:
            out.append(c)
        elif hasattr(c, "children"):
            out.extend(_find_all(c, name))
    return out


@builds("linalg_named")
def _build_named(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    name = str(tree.children[0])
    if name not in NAMED_OPS:
        ctx.error(tree, f"unknown linalg named op '{name}'")
    ins, outs = _ins_outs(ctx, ps)
    attrs: dict[str, Any] = {}
    for kw in ps.all("linalg_kw"):
        key = node_text(kw.children[0]).strip()
        attrs[key] = ctx.attr(kw.children[1])
    attrs["operandSegmentSizes"] = seg_sizes(len(ins), len(outs))
    dicts = ps.all("attr_dict")
    for d in dicts:
        attrs.update(attr_dict_of(ctx, d))
    op = Op(name, [*ins, *outs], _checked_results(ctx, tree, ps, outs), attrs,
            loc=ctx.loc(tree))
    if linalg_bodies.window_rank(name) is not None:
        from ..verify_linalg import window_attrs
        bad = window_attrs(op)
        if bad is not None:  # mlir-opt: at the dictionary, while parsing the custom form
            at = next((d for d in dicts if bad.split("'")[1] in attr_dict_of(ctx, d)), tree)
            ctx.error(at, f"custom op '{name}' '{name}' op {bad}")
    return op


@builds("linalg_generic")
def _build_generic(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    ins, outs = _ins_outs(ctx, ps)
    lead = ctx.attr_dict(ps.one("dict_or_alias"))
    for req in ("indexing_maps", "iterator_types"):
        if req not in lead:
            ctx.error(tree, f"linalg.generic needs '{req}'")
    attrs: dict[str, Any] = {}
    for k, v in lead.items():
        if k == "iterator_types":
            if not isinstance(v, ArrayAttr):
                ctx.error(tree, "iterator_types must be an array")
            v = ArrayAttr(tuple(_iter_attr(e) for e in v.elems))
        attrs[k] = v
    attrs["operandSegmentSizes"] = seg_sizes(len(ins), len(outs))
    extra = ps.one("linalg_generic_attrs")
    if extra is not None:
        attrs.update(attr_dict_of(ctx, extra.children[0]))
    region = ctx.region(ps.one("region"))
    return Op("linalg.generic", [*ins, *outs], _checked_results(ctx, tree, ps, outs), attrs,
              [region],
              loc=ctx.loc(tree))


@builds("linalg_index")
def _build_index(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    attrs = {"dim": ctx.int_attr(ps.one("integer"), IntegerType(64))}
    attrs.update(attr_dict_of(ctx, ps.one("attr_dict")))
    return Op("linalg.index", [], [ctx.type(ps.one("type"))], attrs, loc=ctx.loc(tree))


@builds("linalg_yield")
def _build_yield(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    vals = typed_uses(ctx, ps.one("value_use_list"), ctx.types(ps.one("type_list")))
    return Op("linalg.yield", vals, [],
              attr_dict_of(ctx, ps.one("attr_dict")), loc=ctx.loc(tree))


def _int_list(ctx: Any, node: Any) -> list[int]:
    return [ctx.int64(c) for c in node.children if c is not None]


def _build_perm_like(opname: str, prop: str) -> Any:
    def build(ctx: Any, tree: Any) -> Op:
        ps = Parts(tree)
        ins, outs = _ins_outs(ctx, ps)
        if len(ins) != 1 or len(outs) != 1:
            ctx.error(tree, f"{opname} takes one input and one init")
        attrs: dict[str, Any] = {prop: dense_i64(_int_list(ctx, ps.one("linalg_int_list")))}
        for d in ps.all("attr_dict"):
            attrs.update(attr_dict_of(ctx, d))
        return Op(opname, [*ins, *outs], _tensor_results(outs), attrs, loc=ctx.loc(tree))
    return build


builds("linalg_transpose")(_build_perm_like("linalg.transpose", "permutation"))
builds("linalg_broadcast")(_build_perm_like("linalg.broadcast", "dimensions"))


def _body_region(ctx: Any, ps: Parts, ins: list[Value], outs: list[Value],
                 init_first: bool) -> Region:
    body = ps.one("linalg_body")
    if body is not None:
        args = []
        for decl in body.children:
            if rule_name(decl) != "block_arg_decl":
                continue
            args.append(ctx.block_arg(decl))
        return ctx.region(Parts(body).one("region"), entry_args=args)
    short = ps.one("linalg_short_form")
    if short is None:
        ctx.error(ps.tree, "expected a payload region or a short form like { arith.addf }")
    sp = Parts(short)
    payload_name = node_text(sp.one("bare_id")).strip()
    block = Block([_elem(v.type) for v in [*ins, *outs]])
    n_in = len(ins)
    args = block.args[n_in:] + block.args[:n_in] if init_first else block.args[:n_in]
    payload = Op(payload_name, args, [_elem(outs[0].type)],
                 attr_dict_of(ctx, sp.one("attr_dict")), loc=ctx.loc(short))
    block.append(payload)
    block.append(Op("linalg.yield", [payload.result], loc=ctx.loc(short)))
    return Region([block])


def _elem(t: Any) -> Any:
    return getattr(t, "elem", t)


@builds("linalg_map")
def _build_map(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    ins, outs = _ins_outs(ctx, ps)
    attrs = attr_dict_of(ctx, ps.one("attr_dict"))
    region = _body_region(ctx, ps, ins, outs, init_first=False)
    return Op("linalg.map", [*ins, *outs], _tensor_results(outs), attrs, [region],
              loc=ctx.loc(tree))


@builds("linalg_reduce")
def _build_reduce(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    ins, outs = _ins_outs(ctx, ps)
    attrs: dict[str, Any] = {"dimensions": dense_i64(_int_list(ctx, ps.one("linalg_int_list")))}
    attrs.update(attr_dict_of(ctx, ps.one("attr_dict")))
    region = _body_region(ctx, ps, ins, outs, init_first=True)
    return Op("linalg.reduce", [*ins, *outs], _tensor_results(outs), attrs, [region],
              loc=ctx.loc(tree))


# -- printers ----------------------------------------------------------------------------


def _io(p: Any, ins: list[Value], outs: list[Value]) -> str:
    parts = []
    for kw, vals in (("ins", ins), ("outs", outs)):
        if vals:
            types = ", ".join(p.type(v.type) for v in vals)
            parts.append(f" {kw}({p.values(vals)} : {types})")
    return "".join(parts)


def _arrow(p: Any, op: Op) -> str:
    ts = [p.type(r.type) for r in op.results]
    if not ts:
        return ""
    return f" -> {ts[0]}" if len(ts) == 1 else " -> (" + ", ".join(ts) + ")"


def _with_implicit_body(printer: Any) -> Any:
    """A named-op printer that also handles the op parsed from the generic form: its
    region is left out when it is the implicit body (else the op stays generic, as the
    custom syntax cannot carry another body), and its ``generic_parts`` hook gives the
    generic printer the implicit body and default properties (``linalg_bodies``)."""
    def pr(p: Any, op: Op) -> str:
        if op.regions and not linalg_bodies.has_implicit_body(op):
            return p.generic_op(op)
        return printer(p, op)
    pr.generic_parts = linalg_bodies.generic_parts  # type: ignore[attr-defined]
    return pr


#: discardable attributes a named op's custom form leaves out: MLIR's cache of the
#: indexing maps (recomputed from the op's definition)
_NAMED_CACHE = ("linalg.memoized_indexing_maps",)


def _print_named(p: Any, op: Op) -> str:
    ins, outs = linalg_ins_outs(op)
    skip = {"indexing_maps"} if linalg_bodies.has_default_maps(op) else set()
    kws = "".join(f" {k} = {p.attr(op.attrs[k])}" for k in _NAMED_KEYWORDS
                  if k in op.attrs and k not in skip)
    ad = attrs_suffix(p, op, ("operandSegmentSizes", *_NAMED_KEYWORDS, *_NAMED_CACHE))
    return f"{op.name}{kws}{ad}{_io(p, ins, outs)}{_arrow(p, op)}"


_print_named_op = _with_implicit_body(_print_named)  # one printer shared by every named op
for _name in sorted(NAMED_OPS):
    prints(_name)(_print_named_op)


@prints("linalg.generic")
def _print_generic(p: Any, op: Op) -> str:
    ins, outs = linalg_ins_outs(op)
    items = []
    for k in _GENERIC_PROPS:
        if k not in op.attrs:
            continue
        v = op.attrs[k]
        if k == "iterator_types":
            text = "[" + ", ".join(f'"{_iter_name(e)}"' for e in v.elems) + "]"
        else:
            text = p.attr(v)
        items.append(f"{k} = {text}")
    extra = attrs_suffix(p, op, ("operandSegmentSizes", *_GENERIC_PROPS))
    extra = f" attrs = {extra.strip()}" if extra else ""
    return (f"linalg.generic {{{', '.join(items)}}}{_io(p, ins, outs)}{extra} "
            f"{p.region(op.regions[0], entry_args=True)}{_arrow(p, op)}")


@prints("linalg.index")
def _print_index(p: Any, op: Op) -> str:
    return (f"linalg.index {op.attrs['dim'].value}{attrs_suffix(p, op, ('dim',))} : "
            f"{p.type(op.results[0].type)}")


@prints("linalg.yield")
def _print_yield(p: Any, op: Op) -> str:
    ad = attrs_suffix(p, op)
    if not op.operands:
        return f"linalg.yield{ad}"
    types = ", ".join(p.type(v.type) for v in op.operands)
    return f"linalg.yield{ad} {p.values(op.operands)} : {types}"


def _print_perm_like(prop: str) -> Any:
    def pr(p: Any, op: Op) -> str:
        ins, outs = linalg_ins_outs(op)
        vals = ", ".join(str(v) for v in static_values(op.attrs[prop]))
        return f"{op.name}{_io(p, ins, outs)} {prop} = [{vals}]{attrs_suffix(p, op, (prop,))}"
    return pr


prints("linalg.transpose")(_with_implicit_body(_print_perm_like("permutation")))
prints("linalg.broadcast")(_with_implicit_body(_print_perm_like("dimensions")))


def _print_body(p: Any, op: Op) -> str:
    entry = op.regions[0].entry
    args = ", ".join(f"{p.value(a)}: {p.type(a.type)}" for a in entry.args)
    if not getattr(p, "mlir_opt", False):
        return f" ({args}) {p.region(op.regions[0], entry_args=False)}"
    # mlir-opt: the body's arguments on a line of their own, the body one level deeper
    p.indent += 1
    try:
        return f"\n{'  ' * p.indent}({args}) {p.region(op.regions[0], entry_args=False)}"
    finally:
        p.indent -= 1


def _short_form(p: Any, op: Op, init_first: bool) -> str | None:
    """mlir-opt's `` { arith.addf }`` for a body that is one op applied to the block
    arguments in order (for linalg.reduce, the init last: ``init_first`` names the order
    of the arguments, MLIR's findPayloadOp) and yielded; None otherwise (or when not
    printing as mlir-opt)."""
    if not getattr(p, "mlir_opt", False):
        return None
    r = op.regions[0]
    if len(r.blocks) != 1 or len(r.entry.ops) != 2:
        return None
    payload, y = r.entry.ops
    args = list(r.entry.args)
    if op.name == "linalg.map":
        args = args[:-1]  # the init's argument is not an operand of the payload
    elif init_first:
        args = args[1:] + args[:1]
    if (payload.regions or len(payload.results) != 1 or not args
            or list(payload.operands) != args or list(y.operands) != payload.results):
        return None
    extra = p.attr_dict(payload)
    return f" {{ {payload.name}{extra} }}"


@prints("linalg.map")
def _print_map(p: Any, op: Op) -> str:
    ins, outs = linalg_ins_outs(op)
    short = _short_form(p, op, False)
    if short is not None:
        return f"linalg.map{short}{_io(p, ins, outs)}{attrs_suffix(p, op)}"
    return f"linalg.map{_io(p, ins, outs)}{attrs_suffix(p, op)}{_print_body(p, op)}"


@prints("linalg.reduce")
def _print_reduce(p: Any, op: Op) -> str:
    ins, outs = linalg_ins_outs(op)
    dims = ", ".join(str(v) for v in static_values(op.attrs["dimensions"]))
    short = _short_form(p, op, True) if len(ins) == 1 else None
    return (f"linalg.reduce{short or ''}{_io(p, ins, outs)} dimensions = [{dims}]"
            f"{attrs_suffix(p, op, ('dimensions',))}{'' if short else _print_body(p, op)}")
