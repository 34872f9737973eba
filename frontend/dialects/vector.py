"""vector dialect: builders and printers for ``frontend/grammar/vector.lark``.

Ops keep MLIR's operand order and property names (see ``--mlir-print-op-generic``):

* ``vector.transfer_read``: operands ``[source, *indices, padding, mask?]``, segments
  ``[1, n, 1, 0|1]``; ``in_bounds`` (one bool per vector dimension, default all false)
  and ``permutation_map`` (default the minor identity of the source rank onto the vector
  rank), both elided by the custom printer at their defaults.
* ``vector.transfer_write``: ``[vector, dest, *indices, mask?]``, segments
  ``[1, 1, n, 0|1]``; one result (the updated tensor) when ``dest`` is a tensor.
* ``vector.extract`` / ``vector.insert``: ``static_position`` (``array<i64>`` with
  ``DYNAMIC`` for SSA entries), the dynamic positions as the last operands.
* ``vector.print``: ``punctuation`` (``#vector.punctuation<..>``, default newline),
  optional ``stringLiteral``; ``vector.reduction``: ``kind`` (``#vector.kind<..>``) and
  ``fastmath``; ``vector.contract``: ``indexing_maps``, ``iterator_types``
  (``#vector.iterator_type<..>``) and ``kind`` (default ``add``).
"""

from __future__ import annotations

import re

from ..attrs import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    OpaqueAttr,
    StringAttr,
    dense_i64,
)
from ..ir import Op, Value
from ..types import IndexType, IntegerType, MemRefType, TensorType, VectorType
from . import builds, prints
from ._smb import attr_dict, ensure_block, join_mixed, split_mixed, typed_use, typed_uses
from .tensor import Parts, rule_name, seg_sizes

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

I1 = IntegerType(1)
_SEGMENTS = "operandSegmentSizes"
_NEWLINE = "#vector.punctuation<newline>"
_TRANSFER_PROPS = ("in_bounds", _SEGMENTS, "permutation_map")
#: properties the custom printers need, as mlir-opt requires them of the generic form
REQUIRED = {"vector.transfer_read": _TRANSFER_PROPS, "vector.transfer_write": _TRANSFER_PROPS,
            "vector.extract": ("static_position",), "vector.insert": ("static_position",),
            "vector.reduction": ("kind",), "vector.constant_mask": ("mask_dim_sizes",),
            "vector.transpose": ("permutation",),
            "vector.contract": ("indexing_maps", "iterator_types")}


def verify_op(op: Op) -> str | None:
    """What mlir-opt's verifier says of a vector op given in generic form (the custom
    syntax builders check the same as they build), or None: required properties, and a
    transfer's operand segments against its operands and its source's rank."""
    for prop in REQUIRED.get(op.name, ()):
        if prop not in op.attrs:
            return f"requires attribute '{prop}'"
    if op.name not in ("vector.transfer_read", "vector.transfer_write"):
        return None
    segs = list(getattr(op.attrs[_SEGMENTS], "values", ()))
    if len(segs) != 4 or sum(segs) != len(op.operands):
        return "operand count does not match the operandSegmentSizes property"
    shaped = op.operands[0 if op.name == "vector.transfer_read" else 1].type
    if not isinstance(shaped, TensorType | MemRefType):
        return f"requires source to be a ranked memref or tensor type, got '{shaped}'"
    if segs[1 if op.name == "vector.transfer_read" else 2] != len(shaped.shape):
        return f"requires {len(shaped.shape)} indices"
    return None


def _attrs(ctx: Any, ps: Parts) -> dict[str, Any]:
    return ctx.attr_dict(ps.one("attr_dict"))


def _vector_type(ctx: Any, node: Any) -> VectorType:
    t = ctx.type(node)
    if not isinstance(t, VectorType):
        ctx.error(node, f"custom op '{ctx.op_name}' invalid kind of type specified: expected "
                        f"builtin.vector, but found '{t}'")
    return t


def _index_uses(ctx: Any, node: Any) -> list[Value]:
    elts = node.children[0] if node is not None and node.children else None
    n = 0 if elts is None else len(elts.children)
    return typed_uses(ctx, elts, [IndexType()] * n)


# -- affine maps of transfers ------------------------------------------------------------

_SIMPLE_MAP = re.compile(r"\s*\(([^()\[\]]*)\)\s*->\s*\(([^()]*)\)\s*")


def map_parts(m: Any) -> tuple[list[str], list[str]] | None:
    """(dimension names, result expressions) of a symbol-free map, else None."""
    if not isinstance(m, AffineMapAttr):
        return None
    mt = _SIMPLE_MAP.fullmatch(m.text)
    if mt is None:
        return None
    split = [[s.strip() for s in g.split(",") if s.strip()] for g in mt.groups()]
    return split[0], split[1]


def minor_identity(src_rank: int, vec_rank: int) -> AffineMapAttr:
    """``(d0, .., d{n-1}) -> (d{n-r}, .., d{n-1})``: the default permutation map."""
    dims = [f"d{i}" for i in range(src_rank)]
    return AffineMapAttr(f"({', '.join(dims)}) -> ({', '.join(dims[src_rank - vec_rank:])})")


def _is_minor_identity(m: Any, src_rank: int, vec_rank: int) -> bool:
    parts = map_parts(m)
    return parts is not None and len(parts[0]) == src_rank \
        and parts[1] == parts[0][src_rank - vec_rank:]


def _mask_type(vec: VectorType, perm: Any) -> VectorType | None:
    """The i1 mask type of a transfer: the vector's dimensions ordered by the source
    dimension each one reads (mlir's inferTransferOpMaskType); None if not a
    projected permutation."""
    parts = map_parts(perm)
    if parts is None or not all(r in parts[0] for r in parts[1]):
        return None
    dims, res = parts
    order = sorted(range(len(res)), key=lambda i: dims.index(res[i]))
    scal = vec.scalable or (False,) * len(vec.shape)
    return VectorType(tuple(vec.shape[i] for i in order), I1,
                      tuple(scal[i] for i in order) if vec.scalable else ())


def _transfer_attrs(ctx: Any, tree: Any, ps: Parts, shaped: Any, vec: VectorType,
                    segments: tuple[int, ...]) -> dict[str, Any]:
    """The properties of a transfer (defaults filled in, checked against the types)."""
    if not isinstance(shaped, TensorType | MemRefType):
        ctx.error(tree, f"'{ctx.op_name}' op requires source to be a ranked memref or tensor "
                        f"type, got '{shaped}'")
    given = _attrs(ctx, ps)
    n, r = len(shaped.shape), len(vec.shape)
    perm = given.pop("permutation_map", None) or minor_identity(n, r)
    parts = map_parts(perm)
    if parts is not None and len(parts[0]) != n:
        ctx.error(tree, f"'{ctx.op_name}' op requires a permutation_map with input dims of the "
                        "same rank as the source type")
    if parts is not None and len(parts[1]) != r:
        ctx.error(tree, f"'{ctx.op_name}' op requires a permutation_map with result dims of the "
                        "same rank as the vector type")
    in_bounds = given.pop("in_bounds", None) or ArrayAttr((BoolAttr(False),) * r)
    if not isinstance(in_bounds, ArrayAttr) or len(in_bounds.elems) != r:
        ctx.error(tree, f"'{ctx.op_name}' op expects the in_bounds attr of same rank as "
                        "permutation_map results")
    return {"in_bounds": in_bounds, _SEGMENTS: seg_sizes(*segments), "permutation_map": perm,
            **given}


def _transfer_suffix(p: Any, op: Op, shaped: Any, vec: VectorType) -> str:
    elide = [_SEGMENTS]
    if _is_minor_identity(op.attrs.get("permutation_map"), len(shaped.shape), len(vec.shape)):
        elide.append("permutation_map")
    if all(isinstance(b, BoolAttr) and not b.value for b in op.attrs["in_bounds"].elems):
        elide.append("in_bounds")
    return attr_dict(p, op, tuple(elide))


def _mask_use(ctx: Any, ps: Parts, vec: VectorType, perm: Any) -> list[Value]:
    node = ps.one("vector_mask")
    if node is None:
        return []
    return [typed_use(ctx, node.children[0], _mask_type(vec, perm))]


@builds("vector_transfer_read")
def _build_transfer_read(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    shaped, vec = ctx.type(ps.one("type", 0)), _vector_type(ctx, ps.one("type", 1))
    idx = _index_uses(ctx, ps.one("vector_indices"))
    masked = int(ps.has("vector_mask"))
    attrs = _transfer_attrs(ctx, tree, ps, shaped, vec, (1, len(idx), 1, masked))
    _check_indices(ctx, tree, idx, shaped)
    src_node, pad_node = ps.all("value_use")
    src = typed_use(ctx, src_node, shaped)
    pad = typed_use(ctx, pad_node, shaped.elem)
    mask = _mask_use(ctx, ps, vec, attrs["permutation_map"])
    return Op("vector.transfer_read", [src, *idx, pad, *mask], [vec], attrs, loc=ctx.loc(tree))


@builds("vector_transfer_write")
def _build_transfer_write(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    vec, shaped = _vector_type(ctx, ps.one("type", 0)), ctx.type(ps.one("type", 1))
    idx = _index_uses(ctx, ps.one("vector_indices"))
    masked = int(ps.has("vector_mask"))
    attrs = _transfer_attrs(ctx, tree, ps, shaped, vec, (1, 1, len(idx), masked))
    _check_indices(ctx, tree, idx, shaped)
    vec_node, dest_node = ps.all("value_use")
    v, dest = typed_use(ctx, vec_node, vec), typed_use(ctx, dest_node, shaped)
    mask = _mask_use(ctx, ps, vec, attrs["permutation_map"])
    results = [shaped] if isinstance(shaped, TensorType) else []
    return Op("vector.transfer_write", [v, dest, *idx, *mask], results, attrs,
              loc=ctx.loc(tree))


def _check_indices(ctx: Any, tree: Any, idx: list[Value], shaped: Any) -> None:
    if len(idx) != len(shaped.shape):
        ctx.error(tree, f"'{ctx.op_name}' op requires {len(shaped.shape)} indices")


@prints("vector.transfer_read")
def _print_transfer_read(p: Any, op: Op) -> str:
    src, *rest = op.operands
    n = len(src.type.shape)
    idx, pad, mask = rest[:n], rest[n], rest[n + 1:]
    vec = op.results[0].type
    return (f"vector.transfer_read {p.value(src)}[{p.values(idx)}], {p.value(pad)}"
            + "".join(f", {p.value(m)}" for m in mask)
            + _transfer_suffix(p, op, src.type, vec) + f" : {p.type(src.type)}, {p.type(vec)}")


@prints("vector.transfer_write")
def _print_transfer_write(p: Any, op: Op) -> str:
    v, dest, *rest = op.operands
    n = len(dest.type.shape)
    idx, mask = rest[:n], rest[n:]
    return (f"vector.transfer_write {p.value(v)}, {p.value(dest)}[{p.values(idx)}]"
            + "".join(f", {p.value(m)}" for m in mask)
            + _transfer_suffix(p, op, dest.type, v.type)
            + f" : {p.type(v.type)}, {p.type(dest.type)}")


# -- vector.print --------------------------------------------------------------------------

@builds("vector_print")
def _build_print(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    operands = []
    src = ps.one("vector_print_source")
    if src is not None:
        operands.append(typed_use(ctx, src.children[0], ctx.type(src.children[1])))
    attrs: dict[str, Any] = {"punctuation": OpaqueAttr(_NEWLINE)}
    for node in ps.all("vector_print_punct"):
        kind = ctx.str(node.children[0])
        if kind not in ("no_punctuation", "newline", "comma", "open", "close"):
            ctx.error(node, f"expected vector.punctuation kind, got '{kind}'")
        attrs["punctuation"] = OpaqueAttr(f"#vector.punctuation<{kind}>")
    for node in ps.all("vector_print_str"):
        attrs["stringLiteral"] = StringAttr(ctx.str(node.children[0]))
    attrs.update(_attrs(ctx, ps))
    return Op("vector.print", operands, [], attrs, loc=ctx.loc(tree))


@prints("vector.print")
def _print_print(p: Any, op: Op) -> str:
    s = "vector.print"
    if op.operands:
        (v,) = op.operands
        s += f" {p.value(v)} : {p.type(v.type)}"
    lit = op.attrs.get("stringLiteral")
    if isinstance(lit, StringAttr):
        s += f" str {p.attr(lit)}"
    punct = op.attrs.get("punctuation")
    # a bare `vector.print` would take the next line's `%x` as its operand (mlir-opt's
    # own printout has that flaw): spell the default punctuation when nothing else follows
    text = punct.text if isinstance(punct, OpaqueAttr) else _NEWLINE
    if text != _NEWLINE or s == "vector.print":
        s += " punctuation <" + text[len("#vector.punctuation<"):-1] + ">"
    return s + attr_dict(p, op, ("punctuation", "stringLiteral"))


# -- casts, extract and insert -------------------------------------------------------------

def _build_cast(name: str) -> Any:
    def build(ctx: Any, tree: Any) -> Op:
        ps = Parts(tree)
        src_t, res_t = ctx.type(ps.one("type", 0)), _vector_type(ctx, ps.one("type", 1))
        return Op(name, [typed_use(ctx, ps.one("value_use"), src_t)], [res_t], _attrs(ctx, ps),
                  loc=ctx.loc(tree))
    return build


def _print_cast(name: str) -> Any:
    def show(p: Any, op: Op) -> str:
        (v,) = op.operands
        return (f"{name} {p.value(v)}" + attr_dict(p, op)
                + f" : {p.type(v.type)} to {p.type(op.results[0].type)}")
    return show


for _name in ("vector.broadcast", "vector.shape_cast", "vector.bitcast",
              "vector.extract_strided_slice"):
    builds(_name.replace(".", "_"))(_build_cast(_name))
    prints(_name)(_print_cast(_name))


@builds("vector_transpose")
def _build_transpose(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    src_t, res_t = _vector_type(ctx, ps.one("type", 0)), _vector_type(ctx, ps.one("type", 1))
    perm = [ctx.int64(n) for n in ps.all("integer")]
    if sorted(perm) != list(range(len(src_t.shape))) or \
            tuple(src_t.shape[i] for i in perm) != res_t.shape:
        ctx.error(tree, "'vector.transpose' op expected a permutation of the source dimensions "
                        f"that gives '{res_t}'")
    return Op("vector.transpose", [typed_use(ctx, ps.one("value_use"), src_t)], [res_t],
              {"permutation": dense_i64(perm), **_attrs(ctx, ps)}, loc=ctx.loc(tree))


@prints("vector.transpose")
def _print_transpose(p: Any, op: Op) -> str:
    (v,) = op.operands
    perm = ", ".join(str(i) for i in op.attrs["permutation"].values)
    return (f"vector.transpose {p.value(v)}, [{perm}]" + attr_dict(p, op, ("permutation",))
            + f" : {p.type(v.type)} to {p.type(op.results[0].type)}")


@builds("vector_from_elements")
def _build_from_elements(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    vec = _vector_type(ctx, ps.one("type"))
    node = ps.one("value_use_list")
    return Op("vector.from_elements", typed_uses(ctx, node, [vec.elem] * len(node.children)),
              [vec], _attrs(ctx, ps), loc=ctx.loc(tree))


@prints("vector.from_elements")
def _print_from_elements(p: Any, op: Op) -> str:
    return (f"vector.from_elements {p.values(op.operands)}" + attr_dict(p, op)
            + f" : {p.type(op.results[0].type)}")


def _position(ctx: Any, node: Any) -> tuple[Any, list[Value]]:
    entries: list[int | Value] = []
    for e in node.children:
        sub = e.children[0]
        entries.append(typed_use(ctx, sub, IndexType()) if sub.data == "value_use"
                       else ctx.int64(sub))
    return split_mixed(entries)


def _check_position(ctx: Any, tree: Any, vec: VectorType, n: int, part: Any) -> None:
    """``part`` (the extracted / inserted type) must be what is left of ``vec`` after
    ``n`` leading positions: its element type at full rank, else the trailing vector."""
    rest = vec.shape[n:]
    want = VectorType(rest, vec.elem, vec.scalable[n:] if vec.scalable else ()) if rest \
        else vec.elem
    if n > len(vec.shape) or part != want:
        ctx.error(tree, f"'{ctx.op_name}' op expected position attribute of rank no greater "
                        f"than vector rank and a {'result' if 'extract' in ctx.op_name else 'value'}"
                        f" of type '{want}'")


def _print_position(p: Any, op: Op, dynamic: list[Value]) -> str:
    entries = join_mixed(op.attrs["static_position"], dynamic)
    return "[" + ", ".join(p.value(e) if isinstance(e, Value) else str(e) for e in entries) + "]"


@builds("vector_extract")
def _build_extract(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    res_t, vec = ctx.type(ps.one("type", 0)), _vector_type(ctx, ps.one("type", 1))
    static, dyn = _position(ctx, ps.one("vector_position"))
    _check_position(ctx, tree, vec, len(static.values), res_t)
    src = typed_use(ctx, ps.one("value_use"), vec)
    return Op("vector.extract", [src, *dyn], [res_t],
              {"static_position": static, **_attrs(ctx, ps)}, loc=ctx.loc(tree))


@prints("vector.extract")
def _print_extract(p: Any, op: Op) -> str:
    src, *dyn = op.operands
    return (f"vector.extract {p.value(src)}{_print_position(p, op, dyn)}"
            + attr_dict(p, op, ("static_position",))
            + f" : {p.type(op.results[0].type)} from {p.type(src.type)}")


@builds("vector_insert")
def _build_insert(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    val_t, vec = ctx.type(ps.one("type", 0)), _vector_type(ctx, ps.one("type", 1))
    static, dyn = _position(ctx, ps.one("vector_position"))
    _check_position(ctx, tree, vec, len(static.values), val_t)
    vn, dn = ps.all("value_use")
    v, dest = typed_use(ctx, vn, val_t), typed_use(ctx, dn, vec)
    return Op("vector.insert", [v, dest, *dyn], [vec],
              {"static_position": static, **_attrs(ctx, ps)}, loc=ctx.loc(tree))


@prints("vector.insert")
def _print_insert(p: Any, op: Op) -> str:
    v, dest, *dyn = op.operands
    return (f"vector.insert {p.value(v)}, {p.value(dest)} {_print_position(p, op, dyn)}"
            + attr_dict(p, op, ("static_position",))
            + f" : {p.type(v.type)} into {p.type(dest.type)}")


# -- arithmetic ----------------------------------------------------------------------------

_KINDS = ("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or",
          "xor", "minimumf", "maximumf")


def _kind(ctx: Any, node: Any) -> OpaqueAttr:
    k = ctx.str(node)
    if k not in _KINDS:
        ctx.error(node, f"expected vector.kind, got '{k}'")
    return OpaqueAttr(f"#vector.kind<{k}>")


def _kind_name(a: Any) -> str:
    return str(a)[len("#vector.kind<"):-1]


@builds("vector_reduction")
def _build_reduction(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    vec, res_t = _vector_type(ctx, ps.one("type", 0)), ctx.type(ps.one("type", 1))
    if res_t != vec.elem:
        ctx.error(tree, "'vector.reduction' op failed to verify that source operand and result "
                        "have same element type")
    operands = [typed_use(ctx, ps.one("value_use"), vec)]
    acc = ps.one("vector_acc")
    if acc is not None:
        operands.append(typed_use(ctx, acc.children[0], res_t))
    fm = ps.one("vector_fastmath")
    flags = "none" if fm is None else ",".join(ctx.str(c) for c in fm.children)
    attrs = {"fastmath": OpaqueAttr(f"#arith.fastmath<{flags}>"),
             "kind": _kind(ctx, ps.one("bare_id")), **_attrs(ctx, ps)}
    return Op("vector.reduction", operands, [res_t], attrs, loc=ctx.loc(tree))


@prints("vector.reduction")
def _print_reduction(p: Any, op: Op) -> str:
    fm = str(op.attrs.get("fastmath", ""))
    flags = fm[len("#arith.fastmath<"):-1] if fm.startswith("#arith.fastmath<") else "none"
    return (f"vector.reduction <{_kind_name(op.attrs['kind'])}>, {p.values(op.operands)}"
            + ("" if flags == "none" else f" fastmath<{flags}>")
            + attr_dict(p, op, ("fastmath", "kind"))
            + f" : {p.type(op.operands[0].type)} into {p.type(op.results[0].type)}")


@builds("vector_fma")
def _build_fma(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    t = _vector_type(ctx, ps.one("type"))
    return Op("vector.fma", [typed_use(ctx, n, t) for n in ps.all("value_use")], [t],
              _attrs(ctx, ps), loc=ctx.loc(tree))


@prints("vector.fma")
def _print_fma(p: Any, op: Op) -> str:
    return f"vector.fma {p.values(op.operands)}" + attr_dict(p, op) + \
        f" : {p.type(op.results[0].type)}"


_TRAIT = ("indexing_maps", "iterator_types", "kind")
_ADD = OpaqueAttr("#vector.kind<add>")
_ITER = "#vector.iterator_type<"


@builds("vector_contract")
def _build_contract(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    trait = ctx.attr_dict(ps.one("dict_or_alias"))
    for req in ("indexing_maps", "iterator_types"):
        if req not in trait:
            ctx.error(tree, f"expected '{req}' in the vector.contract attributes")
    iters = trait["iterator_types"]
    if not isinstance(iters, ArrayAttr):
        ctx.error(tree, "iterator_types must be an array")
    names = [e.value if isinstance(e, StringAttr) else str(e)[len(_ITER):-1] for e in iters.elems]
    attrs = {"indexing_maps": trait["indexing_maps"],
             "iterator_types": ArrayAttr(tuple(OpaqueAttr(f"{_ITER}{n}>") for n in names)),
             "kind": trait.get("kind", _ADD),
             **{k: v for k, v in trait.items() if k not in _TRAIT}, **_attrs(ctx, ps)}
    ts = [ctx.type(ps.one("type", i)) for i in range(3)]
    operands = [typed_use(ctx, n, t) for n, t in zip(ps.all("value_use"), ts, strict=True)]
    return Op("vector.contract", operands, [ts[2]], attrs, loc=ctx.loc(tree))


@prints("vector.contract")
def _print_contract(p: Any, op: Op) -> str:
    iters = ", ".join('"' + str(e)[len(_ITER):-1] + '"' for e in op.attrs["iterator_types"].elems)
    trait = (f"{{indexing_maps = {p.attr(op.attrs['indexing_maps'])}, iterator_types = [{iters}], "
             f"kind = {p.attr(op.attrs.get('kind', _ADD))}}}")
    lhs, rhs, acc = op.operands
    return (f"vector.contract {trait} {p.values(op.operands)}" + attr_dict(p, op, _TRAIT)
            + f" : {p.type(lhs.type)}, {p.type(rhs.type)} into {p.type(acc.type)}")


# -- masks, steps, loads and stores ---------------------------------------------------------

@builds("vector_create_mask")
def _build_create_mask(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    node = ps.one("value_use_list")
    n = 0 if node is None else len(node.children)
    return Op("vector.create_mask", typed_uses(ctx, node, [IndexType()] * n),
              [_vector_type(ctx, ps.one("type"))], _attrs(ctx, ps), loc=ctx.loc(tree))


@prints("vector.create_mask")
def _print_create_mask(p: Any, op: Op) -> str:
    return f"vector.create_mask {p.values(op.operands)}" + attr_dict(p, op) + \
        f" : {p.type(op.results[0].type)}"


@builds("vector_constant_mask")
def _build_constant_mask(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    sizes = dense_i64([ctx.int64(n) for n in ps.all("integer")])
    return Op("vector.constant_mask", [], [_vector_type(ctx, ps.one("type"))],
              {"mask_dim_sizes": sizes, **_attrs(ctx, ps)}, loc=ctx.loc(tree))


@prints("vector.constant_mask")
def _print_constant_mask(p: Any, op: Op) -> str:
    sizes = ", ".join(str(s) for s in op.attrs["mask_dim_sizes"].values)
    return f"vector.constant_mask [{sizes}]" + attr_dict(p, op, ("mask_dim_sizes",)) + \
        f" : {p.type(op.results[0].type)}"


@builds("vector_step")
def _build_step(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    return Op("vector.step", [], [_vector_type(ctx, ps.one("type"))], _attrs(ctx, ps),
              loc=ctx.loc(tree))


@prints("vector.step")
def _print_step(p: Any, op: Op) -> str:
    return "vector.step" + attr_dict(p, op) + f" : {p.type(op.results[0].type)}"


@builds("vector_load")
def _build_load(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    base_t, vec = ctx.type(ps.one("type", 0)), _vector_type(ctx, ps.one("type", 1))
    idx = _index_uses(ctx, ps.one("vector_indices"))
    _check_indices(ctx, tree, idx, base_t)
    base = typed_use(ctx, ps.one("value_use"), base_t)
    return Op("vector.load", [base, *idx], [vec], _attrs(ctx, ps), loc=ctx.loc(tree))


@prints("vector.load")
def _print_load(p: Any, op: Op) -> str:
    base, *idx = op.operands
    return (f"vector.load {p.value(base)}[{p.values(idx)}]" + attr_dict(p, op)
            + f" : {p.type(base.type)}, {p.type(op.results[0].type)}")


@builds("vector_gather")
def _build_gather(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    base_t = ctx.type(ps.one("type", 0))
    idx_t, mask_t, pass_t, res_t = (_vector_type(ctx, ps.one("type", k)) for k in (1, 2, 3, 4))
    offsets = _index_uses(ctx, ps.one("vector_indices", 0))
    _check_indices(ctx, tree, offsets, base_t)
    vec_idx = ps.one("vector_indices", 1)
    elts = vec_idx.children[0].children if vec_idx.children else []
    if len(elts) != 1:
        ctx.error(vec_idx, "expected one index vector")
    base_n, mask_n, pass_n = ps.all("value_use")
    return Op("vector.gather", [typed_use(ctx, base_n, base_t), *offsets, typed_use(ctx, elts[0], idx_t),
                                typed_use(ctx, mask_n, mask_t), typed_use(ctx, pass_n, pass_t)],
              [res_t], _attrs(ctx, ps), loc=ctx.loc(tree))


@prints("vector.gather")
def _print_gather(p: Any, op: Op) -> str:
    base, *rest = op.operands
    n = len(base.type.shape)
    offsets, (vec_idx, mask, pass_thru) = rest[:n], rest[n:]
    return (f"vector.gather {p.value(base)}[{p.values(offsets)}] [{p.value(vec_idx)}], {p.value(mask)}, "
            f"{p.value(pass_thru)}" + attr_dict(p, op)
            + f" : {p.type(base.type)}, {p.type(vec_idx.type)}, {p.type(mask.type)}, {p.type(pass_thru.type)}"
            + f" into {p.type(op.results[0].type)}")


@builds("vector_mask_op")
def _build_mask(ctx: Any, tree: Any) -> Op:
    """``vector.mask`` in custom syntax: one op in its region, whose results the implicit
    ``vector.yield`` passes on (as MLIR's MaskOp::ensureTerminator adds it)."""
    ps = Parts(tree)
    mask_t = _vector_type(ctx, ps.one("type", 0))
    res = ps.one("vector_mask_results")
    types = [] if res is None else _result_types(ctx, res.children[0])
    operands = [typed_use(ctx, ps.one("value_use"), mask_t)]
    passthru = ps.one("vector_mask_passthru")
    if passthru is not None:
        operands.append(typed_use(ctx, passthru.children[0], types[0] if types else None))
    loc = ctx.loc(tree)

    def yield_results(r: Any) -> None:
        ensure_block(r)
        ops = r.entry.ops
        if not ops or ops[-1].name != "vector.yield":  # placed at the masked op (in source order)
            r.entry.append(Op("vector.yield", list(ops[-1].results) if ops else [],
                              loc=ops[-1].loc if ops else loc))

    region = ctx.region(ps.one("region"), then=yield_results)
    return Op("vector.mask", operands, types, _attrs(ctx, ps), [region], loc=loc)


def _result_types(ctx: Any, node: Any) -> list[Any]:
    return list(ctx.types(node)) if rule_name(node) == "type_list_parens" else [ctx.type(node)]


@builds("vector_store")
def _build_store(ctx: Any, tree: Any) -> Op:
    ps = Parts(tree)
    base_t, vec = ctx.type(ps.one("type", 0)), _vector_type(ctx, ps.one("type", 1))
    idx = _index_uses(ctx, ps.one("vector_indices"))
    _check_indices(ctx, tree, idx, base_t)
    vn, bn = ps.all("value_use")
    v, base = typed_use(ctx, vn, vec), typed_use(ctx, bn, base_t)
    return Op("vector.store", [v, base, *idx], [], _attrs(ctx, ps), loc=ctx.loc(tree))


@prints("vector.store")
def _print_store(p: Any, op: Op) -> str:
    v, base, *idx = op.operands
    return (f"vector.store {p.value(v)}, {p.value(base)}[{p.values(idx)}]" + attr_dict(p, op)
            + f" : {p.type(base.type)}, {p.type(v.type)}")

