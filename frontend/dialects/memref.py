"""memref dialect: custom assembly of alloc / alloca / dealloc / copy / load / store /
subview / cast / get_global / global / dim / reinterpret_cast / expand_shape /
collapse_shape / extract_strided_metadata / view / assume_alignment.
Grammar: ``grammar/memref.lark``. Operands, results and properties as in MLIR's generic
form (``operandSegmentSizes``, ``static_offsets`` with ``DYNAMIC``, ...)."""

from __future__ import annotations

from bufferlog.core.records import value_class

from ..attrs import (
    DenseElementsAttr,
    DenseResourceAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from ..ir import Op, Value
from ..syntax_tree import Tree
from ..types import (
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from . import builds, prints
from ._smb import (
    attr_dict,
    has,
    join_mixed,
    kid,
    kids,
    mixed,
    print_mixed,
    segment,
    segments,
    split_mixed,
    typed_use,
    typed_uses,
)

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

# -- helpers for the analysis ----------------------------------------------------------


@value_class
class SubviewParams:
    source: Value
    offsets: list[int | Value]
    sizes: list[int | Value]
    strides: list[int | Value]


def subview_params(op: Op) -> SubviewParams:
    """(source, offsets, sizes, strides) of memref.subview / memref.reinterpret_cast,
    each entry a static int or an SSA value."""
    assert op.name in ("memref.subview", "memref.reinterpret_cast"), op.name
    return SubviewParams(op.operands[0],
                         join_mixed(op.attrs["static_offsets"], segment(op, 1)),
                         join_mixed(op.attrs["static_sizes"], segment(op, 2)),
                         join_mixed(op.attrs["static_strides"], segment(op, 3)))


def alloc_parts(op: Op) -> tuple[list[Value], list[Value]]:
    """(dynamic sizes, symbol operands) of memref.alloc / memref.alloca."""
    assert op.name in ("memref.alloc", "memref.alloca"), op.name
    return segment(op, 0), segment(op, 1)


def load_parts(op: Op) -> tuple[Value, list[Value]]:
    """(memref, indices) of memref.load."""
    return op.operands[0], op.operands[1:]


def store_parts(op: Op) -> tuple[Value, Value, list[Value]]:
    """(stored value, memref, indices) of memref.store."""
    return op.operands[0], op.operands[1], op.operands[2:]


def copy_parts(op: Op) -> tuple[Value, Value]:
    """(source, target) of memref.copy."""
    return op.operands[0], op.operands[1]


def expand_shape_output(op: Op) -> list[int | Value]:
    return join_mixed(op.attrs["static_output_shape"], op.operands[1:])


# -- shared tree/print pieces ----------------------------------------------------------

def _attrs(ctx: Any, tree: Tree) -> dict[str, Any]:
    node = kid(tree, "attr_dict")
    return dict(ctx.attr_dict(node)) if node is not None else {}


def _types(ctx: Any, tree: Tree) -> list[Any]:
    return [ctx.type(n) for n in kids(tree, "type")]


def _mixed(ctx: Any, node: Tree) -> list[int | Value]:
    return mixed(ctx, node, "memref_mixed_elts", "memref_mixed_elt")


def _attr(ctx: Any, tree: Tree) -> Any:
    return ctx.attr(kid(tree, "memref_attr").children[0])


def _uses(ctx: Any, node: Tree | None) -> list[Value]:
    return list(ctx.uses(node)) if node is not None else []


def _indices(ctx: Any, node: Tree | None) -> list[Value]:
    if node is None:
        return []
    return typed_uses(ctx, node, [IndexType()] * len(node.children))


def _elem(ctx: Any, node: Tree, t: Any) -> Any:
    if not isinstance(t, MemRefType | UnrankedMemRefType):
        ctx.error(node, f"expected a memref type, got {t}")
    return t.elem


_OFS = ("operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")


# -- alloc / alloca / dealloc ----------------------------------------------------------

def _build_alloc(name: str, ctx: Any, tree: Tree) -> Op:
    dyn = _indices(ctx, kid(kid(tree, "memref_dyn_sizes"), "value_use_list"))
    sym_node = kid(tree, "memref_symbols")
    sym = _indices(ctx, kid(sym_node, "value_use_list")) if sym_node is not None else []
    (t,) = _types(ctx, tree)
    attrs = _attrs(ctx, tree)
    attrs["operandSegmentSizes"] = segments(len(dyn), len(sym))
    return Op(name, [*dyn, *sym], [t], attrs, loc=ctx.loc(tree))


def _print_alloc(p: Any, op: Op) -> str:
    dyn, sym = alloc_parts(op)
    s = op.name + "(" + p.values(dyn) + ")"
    if sym:
        s += "[" + p.values(sym) + "]"
    return s + attr_dict(p, op, ("operandSegmentSizes",)) + " : " + p.type(op.result.type)


@builds("memref_alloc")
def build_alloc(ctx: Any, tree: Tree) -> Op:
    return _build_alloc("memref.alloc", ctx, tree)


@builds("memref_alloca")
def build_alloca(ctx: Any, tree: Tree) -> Op:
    return _build_alloc("memref.alloca", ctx, tree)


prints("memref.alloc")(_print_alloc)
prints("memref.alloca")(_print_alloc)


@builds("memref_dealloc")
def build_dealloc(ctx: Any, tree: Tree) -> Op:
    (t,) = _types(ctx, tree)
    m = typed_use(ctx, kid(tree, "value_use"), t)
    return Op("memref.dealloc", [m], [], _attrs(ctx, tree),
              loc=ctx.loc(tree))


@prints("memref.dealloc")
def print_dealloc(p: Any, op: Op) -> str:
    (m,) = op.operands
    return f"memref.dealloc {p.value(m)}" + attr_dict(p, op) + " : " + p.type(m.type)


# -- copy / load / store ---------------------------------------------------------------

@builds("memref_copy")
def build_copy(ctx: Any, tree: Tree) -> Op:
    src, dst = (typed_use(ctx, n, t)
                for n, t in zip(kids(tree, "value_use"), _types(ctx, tree), strict=True))
    return Op("memref.copy", [src, dst], [], _attrs(ctx, tree), loc=ctx.loc(tree))


@prints("memref.copy")
def print_copy(p: Any, op: Op) -> str:
    src, dst = op.operands
    return (f"memref.copy {p.value(src)}, {p.value(dst)}" + attr_dict(p, op)
            + f" : {p.type(src.type)} to {p.type(dst.type)}")


@builds("memref_load")
def build_load(ctx: Any, tree: Tree) -> Op:
    (t,) = _types(ctx, tree)
    m = typed_use(ctx, kid(tree, "value_use"), t)
    idx = _indices(ctx, kid(tree, "value_use_list"))
    return Op("memref.load", [m, *idx], [_elem(ctx, tree, t)], _attrs(ctx, tree),
              loc=ctx.loc(tree))


@prints("memref.load")
def print_load(p: Any, op: Op) -> str:
    m, idx = load_parts(op)
    return (f"memref.load {p.value(m)}[{p.values(idx)}]" + attr_dict(p, op)
            + " : " + p.type(m.type))


@builds("memref_store")
def build_store(ctx: Any, tree: Tree) -> Op:
    (t,) = _types(ctx, tree)
    v_node, m_node = kids(tree, "value_use")
    m = typed_use(ctx, m_node, t)
    v = typed_use(ctx, v_node, _elem(ctx, tree, t))
    idx = _indices(ctx, kid(tree, "value_use_list"))
    return Op("memref.store", [v, m, *idx], [], _attrs(ctx, tree), loc=ctx.loc(tree))


@prints("memref.store")
def print_store(p: Any, op: Op) -> str:
    v, m, idx = store_parts(op)
    return (f"memref.store {p.value(v)}, {p.value(m)}[{p.values(idx)}]" + attr_dict(p, op)
            + " : " + p.type(m.type))


# -- subview / reinterpret_cast --------------------------------------------------------

def _ofs_attrs(offs: list, sizes: list, strides: list) -> tuple[dict[str, Any], list[Value]]:
    s_o, d_o = split_mixed(offs)
    s_s, d_s = split_mixed(sizes)
    s_t, d_t = split_mixed(strides)
    attrs = {"operandSegmentSizes": segments(1, len(d_o), len(d_s), len(d_t)),
             "static_offsets": s_o, "static_sizes": s_s, "static_strides": s_t}
    return attrs, [*d_o, *d_s, *d_t]


def _build_ofs(name: str, ctx: Any, tree: Tree) -> Op:
    src_t, res_t = _types(ctx, tree)
    src = typed_use(ctx, kid(tree, "value_use"), src_t)
    offs, sizes, strides = (_mixed(ctx, n) for n in kids(tree, "memref_mixed"))
    props, dyn = _ofs_attrs(offs, sizes, strides)
    attrs = _attrs(ctx, tree)
    attrs.update(props)
    return Op(name, [src, *dyn], [res_t], attrs, loc=ctx.loc(tree))


@builds("memref_subview")
def build_subview(ctx: Any, tree: Tree) -> Op:
    return _build_ofs("memref.subview", ctx, tree)


@prints("memref.subview")
def print_subview(p: Any, op: Op) -> str:
    sv = subview_params(op)
    s = (f"memref.subview {p.value(sv.source)}" + print_mixed(p, sv.offsets) + " "
         + print_mixed(p, sv.sizes) + " " + print_mixed(p, sv.strides))
    return (s + attr_dict(p, op, _OFS)
            + f" : {p.type(sv.source.type)} to {p.type(op.result.type)}")


@builds("memref_reinterpret_cast")
def build_reinterpret_cast(ctx: Any, tree: Tree) -> Op:
    return _build_ofs("memref.reinterpret_cast", ctx, tree)


@prints("memref.reinterpret_cast")
def print_reinterpret_cast(p: Any, op: Op) -> str:
    sv = subview_params(op)
    s = (f"memref.reinterpret_cast {p.value(sv.source)} to offset: "
         + print_mixed(p, sv.offsets) + ", sizes: " + print_mixed(p, sv.sizes)
         + ", strides: " + print_mixed(p, sv.strides))
    return (s + attr_dict(p, op, _OFS)
            + f" : {p.type(sv.source.type)} to {p.type(op.result.type)}")


# -- cast / dim / view / assume_alignment ----------------------------------------------

@builds("memref_cast")
def build_cast(ctx: Any, tree: Tree) -> Op:
    src_t, res_t = _types(ctx, tree)
    return Op("memref.cast", [typed_use(ctx, kid(tree, "value_use"), src_t)], [res_t], _attrs(ctx, tree),
              loc=ctx.loc(tree))


@prints("memref.cast")
def print_cast(p: Any, op: Op) -> str:
    (src,) = op.operands
    return (f"memref.cast {p.value(src)}" + attr_dict(p, op)
            + f" : {p.type(src.type)} to {p.type(op.result.type)}")


@builds("memref_realloc")
def build_realloc(ctx: Any, tree: Tree) -> Op:
    src_t, res_t = _types(ctx, tree)
    for i, (what, node, t) in enumerate((("source", kids(tree, "type")[0], src_t),
                                         ("result", kids(tree, "type")[1], res_t))):
        if not isinstance(t, MemRefType):
            ctx.error(node, "custom op 'memref.realloc' invalid kind of type specified: "
                            f"expected builtin.memref, but found '{t}'")
        if len(t.shape) != 1:
            ctx.error(tree, f"'memref.realloc' op {('operand', 'result')[i]} #0 must be 1D "
                            f"memref of any type values, but got '{t}'")
        if t.layout is not None:
            ctx.error(tree, f"unsupported layout for {what} memref type '{t}'")
    if src_t.elem != res_t.elem:
        ctx.error(tree, f"different element types specified for source memref type '{src_t}' "
                        f"and result memref type '{res_t}'")
    size = kid(tree, "memref_realloc_size")
    if size is None and res_t.shape[0] is None:
        ctx.error(tree, f"missing dimension operand for result type '{res_t}'")
    if size is not None and res_t.shape[0] is not None:
        ctx.error(tree, f"unnecessary dimension operand for result type '{res_t}'")
    operands = [typed_use(ctx, kid(tree, "value_use"), src_t)]
    if size is not None:
        operands.append(typed_use(ctx, size.children[0], IndexType()))
    return Op("memref.realloc", operands, [res_t], _attrs(ctx, tree), loc=ctx.loc(tree))


@prints("memref.realloc")
def print_realloc(p: Any, op: Op) -> str:
    src, *size = op.operands
    return (f"memref.realloc {p.value(src)}" + "".join(f"({p.value(s)})" for s in size)
            + attr_dict(p, op) + f" : {p.type(src.type)} to {p.type(op.result.type)}")


@builds("memref_memory_space_cast")
def build_memory_space_cast(ctx: Any, tree: Tree) -> Op:
    src_t, res_t = _types(ctx, tree)
    return Op("memref.memory_space_cast", [typed_use(ctx, kid(tree, "value_use"), src_t)],
              [res_t], _attrs(ctx, tree), loc=ctx.loc(tree))


@prints("memref.memory_space_cast")
def print_memory_space_cast(p: Any, op: Op) -> str:
    (src,) = op.operands
    return (f"memref.memory_space_cast {p.value(src)}" + attr_dict(p, op)
            + f" : {p.type(src.type)} to {p.type(op.result.type)}")


@builds("memref_reshape")
def build_reshape(ctx: Any, tree: Tree) -> Op:
    ty_node = kid(tree, "type")
    fn = ctx.type(ty_node)
    if not isinstance(fn, FunctionType) or len(fn.inputs) != 2 or len(fn.results) != 1:
        ctx.error(ty_node, "memref.reshape expects `(source_type, shape_type) -> result_type`")
    src, shape = (typed_use(ctx, n, t)
                  for n, t in zip(kids(tree, "value_use"), fn.inputs, strict=True))
    return Op("memref.reshape", [src, shape], list(fn.results), _attrs(ctx, tree),
              loc=ctx.loc(tree))


@prints("memref.reshape")
def print_reshape(p: Any, op: Op) -> str:
    src, shape = op.operands
    fn = FunctionType((src.type, shape.type), (op.result.type,))
    return f"memref.reshape {p.value(src)}({p.value(shape)})" + attr_dict(p, op) + " : " + p.type(fn)


@builds("memref_dim")
def build_dim(ctx: Any, tree: Tree) -> Op:
    m_node, i_node = kids(tree, "value_use")
    (t,) = _types(ctx, tree)
    m, i = typed_use(ctx, m_node, t), typed_use(ctx, i_node, IndexType())
    return Op("memref.dim", [m, i], [IndexType()], _attrs(ctx, tree), loc=ctx.loc(tree))


@prints("memref.dim")
def print_dim(p: Any, op: Op) -> str:
    m, i = op.operands
    return f"memref.dim {p.value(m)}, {p.value(i)}" + attr_dict(p, op) + " : " + p.type(m.type)


@builds("memref_view")
def build_view(ctx: Any, tree: Tree) -> Op:
    src_t, res_t = _types(ctx, tree)
    src_node, shift_node = kids(tree, "value_use")
    src, shift = typed_use(ctx, src_node, src_t), typed_use(ctx, shift_node, IndexType())
    sizes = _indices(ctx, kid(tree, "value_use_list"))
    return Op("memref.view", [src, shift, *sizes], [res_t], _attrs(ctx, tree),
              loc=ctx.loc(tree))


@prints("memref.view")
def print_view(p: Any, op: Op) -> str:
    src, shift, *sizes = op.operands
    return (f"memref.view {p.value(src)}[{p.value(shift)}][{p.values(sizes)}]"
            + attr_dict(p, op) + f" : {p.type(src.type)} to {p.type(op.result.type)}")


@builds("memref_assume_alignment")
def build_assume_alignment(ctx: Any, tree: Tree) -> Op:
    (t,) = _types(ctx, tree)
    m = typed_use(ctx, kid(tree, "value_use"), t)
    attrs = {"alignment": ctx.int_attr(kid(tree, "integer"), IntegerType(32))}
    attrs.update(_attrs(ctx, tree))
    return Op("memref.assume_alignment", [m], [t], attrs, loc=ctx.loc(tree))


@prints("memref.assume_alignment")
def print_assume_alignment(p: Any, op: Op) -> str:
    (m,) = op.operands
    a = op.attrs["alignment"]
    return (f"memref.assume_alignment {p.value(m)}, {getattr(a, 'value', a)}"
            + attr_dict(p, op, ("alignment",)) + " : " + p.type(m.type))


# -- globals ---------------------------------------------------------------------------

def _symbol(ctx: Any, node: Tree) -> SymbolRefAttr:
    return ctx.symbol(node)


@builds("memref_get_global")
def build_get_global(ctx: Any, tree: Tree) -> Op:
    (t,) = _types(ctx, tree)
    attrs = {"name": _symbol(ctx, kid(tree, "symbol_ref"))}
    attrs.update(_attrs(ctx, tree))
    return Op("memref.get_global", [], [t], attrs, loc=ctx.loc(tree))


@prints("memref.get_global")
def print_get_global(p: Any, op: Op) -> str:
    return (f"memref.get_global {p.attr(op.attrs['name'])}" + attr_dict(p, op, ("name",))
            + " : " + p.type(op.result.type))


def _tensor_of(t: Any) -> Any:
    if isinstance(t, MemRefType):
        return TensorType(t.shape, t.elem)
    if isinstance(t, UnrankedMemRefType):
        return UnrankedTensorType(t.elem)
    return t


def _typed_init(a: Any, t: Any) -> Any:
    """The initializer is written without its type (``dense<1.0>``): give it the tensor
    type of the global, as MLIR does."""
    text = str(a)
    if isinstance(a, OpaqueAttr) and text.startswith("dense<"):
        return DenseElementsAttr(text[len("dense<"):-1], t)
    if isinstance(a, OpaqueAttr) and text.startswith("dense_resource<"):
        return DenseResourceAttr(text[len("dense_resource<"):-1], t)
    return a


@builds("memref_global")
def build_global(ctx: Any, tree: Tree) -> Op:
    attrs: dict[str, Any] = {}
    vis = kid(tree, "string")
    if vis is not None:
        attrs["sym_visibility"] = StringAttr(ctx.str(vis))
    if has(tree, "memref_constant"):
        attrs["constant"] = UnitAttr()
    attrs["sym_name"] = StringAttr(_symbol(ctx, kid(tree, "symbol_ref")).root)
    (t,) = _types(ctx, tree)
    attrs["type"] = TypeAttr(t)
    init = kid(tree, "memref_global_init")
    if init is not None:
        if has(init, "memref_uninitialized"):
            attrs["initial_value"] = UnitAttr()
        else:
            attrs["initial_value"] = _typed_init(_attr(ctx, init), _tensor_of(t))
    attrs.update(_attrs(ctx, tree))
    return Op("memref.global", [], [], attrs, loc=ctx.loc(tree))


def _untyped(p: Any, a: Any) -> str:
    if isinstance(a, DenseElementsAttr):
        return f"dense<{a.text}>"
    if isinstance(a, DenseResourceAttr):
        return f"dense_resource<{a.handle}>"
    text = p.attr(a)
    typ = getattr(a, "type", None)
    if typ is not None and text.endswith(f" : {typ}"):
        text = text[: -len(f" : {typ}")]
    return text


@prints("memref.global")
def print_global(p: Any, op: Op) -> str:
    a = op.attrs
    s = "memref.global "
    if "sym_visibility" in a:
        s += p.attr(a["sym_visibility"]) + " "
    if "constant" in a:
        s += "constant "
    s += p.attr(SymbolRefAttr(a["sym_name"].value)) + " : " + p.type(a["type"].type)
    init = a.get("initial_value")
    if isinstance(init, UnitAttr):
        s += " = uninitialized"
    elif init is not None:
        s += " = " + _untyped(p, init)
    return s + attr_dict(p, op, ("sym_visibility", "constant", "sym_name", "type",
                                 "initial_value"))


def global_initial_value(op: Op) -> Any:
    """The initializer attr of a memref.global, or None (external / uninitialized)."""
    v = op.attrs.get("initial_value")
    return None if v is None or isinstance(v, UnitAttr) else v


# -- reshapes --------------------------------------------------------------------------

@builds("memref_expand_shape")
def build_expand_shape(ctx: Any, tree: Tree) -> Op:
    src_t, res_t = _types(ctx, tree)
    src = typed_use(ctx, kid(tree, "value_use"), src_t)
    s_out, d_out = split_mixed(_mixed(ctx, kid(tree, "memref_mixed")))
    attrs = {"reassociation": _attr(ctx, tree), "static_output_shape": s_out}
    attrs.update(_attrs(ctx, tree))
    return Op("memref.expand_shape", [src, *d_out], [res_t], attrs, loc=ctx.loc(tree))


@prints("memref.expand_shape")
def print_expand_shape(p: Any, op: Op) -> str:
    src = op.operands[0]
    return (f"memref.expand_shape {p.value(src)} {p.attr(op.attrs['reassociation'])}"
            + " output_shape " + print_mixed(p, expand_shape_output(op))
            + attr_dict(p, op, ("reassociation", "static_output_shape"))
            + f" : {p.type(src.type)} into {p.type(op.result.type)}")


@builds("memref_collapse_shape")
def build_collapse_shape(ctx: Any, tree: Tree) -> Op:
    src_t, res_t = _types(ctx, tree)
    src = typed_use(ctx, kid(tree, "value_use"), src_t)
    attrs = {"reassociation": _attr(ctx, tree)}
    attrs.update(_attrs(ctx, tree))
    return Op("memref.collapse_shape", [src], [res_t], attrs, loc=ctx.loc(tree))


@prints("memref.collapse_shape")
def print_collapse_shape(p: Any, op: Op) -> str:
    src = op.operands[0]
    return (f"memref.collapse_shape {p.value(src)} {p.attr(op.attrs['reassociation'])}"
            + attr_dict(p, op, ("reassociation",))
            + f" : {p.type(src.type)} into {p.type(op.result.type)}")


@builds("memref_extract_strided_metadata")
def build_extract_strided_metadata(ctx: Any, tree: Tree) -> Op:
    (t,) = _types(ctx, tree)
    src = typed_use(ctx, kid(tree, "value_use"), t)
    res = list(ctx.types(kid(tree, "type_list")))
    rank = t.rank if isinstance(t, MemRefType) else None
    if rank is not None and len(res) != 2 + 2 * rank:
        ctx.error(tree, f"extract_strided_metadata of a rank-{rank} memref has "
                        f"{2 + 2 * rank} results, not {len(res)}")
    return Op("memref.extract_strided_metadata", [src], res, _attrs(ctx, tree),
              loc=ctx.loc(tree))


@prints("memref.extract_strided_metadata")
def print_extract_strided_metadata(p: Any, op: Op) -> str:
    (src,) = op.operands
    return (f"memref.extract_strided_metadata {p.value(src)}" + attr_dict(p, op)
            + f" : {p.type(src.type)} -> " + ", ".join(p.type(r.type) for r in op.results))
