"""bufferization dialect: custom assembly of to_tensor / to_buffer (and its pre-22
spelling to_memref, printed as to_buffer) / alloc_tensor / materialize_in_destination /
clone / dealloc. Grammar: ``grammar/bufferization.lark``. Properties as in MLIR's generic
form: unit attrs ``restrict``, ``writable``, ``read_only``; ``operandSegmentSizes`` on
alloc_tensor ``[dynamic_sizes, copy, size_hint]`` and dealloc
``[memrefs, conditions, retained]``."""

from __future__ import annotations

from bufferlog.core.records import value_class

from ..attrs import UnitAttr
from ..ir import Op, Value
from ..syntax_tree import Tree
from ..types import (
    FunctionType,
    IntegerType,
    MemRefType,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
    is_tensor,
)
from . import builds, prints
from ._smb import attr_dict, has, kid, kids, segment, segments, typed_use, typed_uses

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

# -- helpers for the analysis ----------------------------------------------------------


@value_class
class AllocTensorParts:
    dynamic_sizes: list[Value]
    copy: Value | None
    size_hint: Value | None


def alloc_tensor_parts(op: Op) -> AllocTensorParts:
    assert op.name == "bufferization.alloc_tensor", op.name
    copy, hint = segment(op, 1), segment(op, 2)
    return AllocTensorParts(segment(op, 0), copy[0] if copy else None,
                            hint[0] if hint else None)


@value_class
class DeallocParts:
    memrefs: list[Value]
    conditions: list[Value]
    retained: list[Value]


def dealloc_parts(op: Op) -> DeallocParts:
    """(memrefs, conditions, retained) of bufferization.dealloc; result i is the
    ownership of ``retained[i]``."""
    assert op.name == "bufferization.dealloc", op.name
    return DeallocParts(segment(op, 0), segment(op, 1), segment(op, 2))


def materialize_parts(op: Op) -> tuple[Value, Value, bool]:
    """(source, dest, dest_is_tensor) of bufferization.materialize_in_destination."""
    src, dst = op.operands
    return src, dst, is_tensor(dst.type)


def is_restrict(op: Op) -> bool:
    return "restrict" in op.attrs


def is_writable(op: Op) -> bool:
    return "writable" in op.attrs


# -- tree helpers ----------------------------------------------------------------------

def _attrs(ctx: Any, tree: Tree) -> dict[str, Any]:
    node = kid(tree, "attr_dict")
    return dict(ctx.attr_dict(node)) if node is not None else {}


def _unit(tree: Tree, rule: str, name: str) -> dict[str, Any]:
    return {name: UnitAttr()} if has(tree, rule) else {}


def _to_type(ctx: Any, tree: Tree) -> Any:
    t = kid(tree, "bufz_to_type")
    return ctx.type(kid(t, "type")) if t is not None else None


def _tensor_like(t: Any) -> Any:
    if isinstance(t, MemRefType):
        return TensorType(t.shape, t.elem)
    if isinstance(t, UnrankedMemRefType):
        return UnrankedTensorType(t.elem)
    return t


# -- to_tensor / to_buffer -------------------------------------------------------------

@builds("bufz_to_tensor")
def build_to_tensor(ctx: Any, tree: Tree) -> Op:
    src_t = ctx.type(kid(tree, "type"))
    m = typed_use(ctx, kid(tree, "value_use"), src_t)
    res_t = _to_type(ctx, tree) or _tensor_like(src_t)  # old form: `: memref<..>` only
    attrs = {**_unit(tree, "bufz_restrict", "restrict"), **_unit(tree, "bufz_writable", "writable")}
    attrs.update(_attrs(ctx, tree))
    return Op("bufferization.to_tensor", [m], [res_t], attrs, loc=ctx.loc(tree))


@prints("bufferization.to_tensor")
def print_to_tensor(p: Any, op: Op) -> str:
    (m,) = op.operands
    s = "bufferization.to_tensor " + p.value(m)
    for k in ("restrict", "writable"):
        if k in op.attrs:
            s += " " + k
    return (s + attr_dict(p, op, ("restrict", "writable"))
            + f" : {p.type(m.type)} to {p.type(op.result.type)}")


@builds("bufz_to_buffer")
def build_to_buffer(ctx: Any, tree: Tree) -> Op:
    first = ctx.type(kid(tree, "type"))
    res_t = _to_type(ctx, tree)
    if res_t is None:  # old form: `: memref<..>` names the result
        t, res_t = ctx.use(kid(tree, "value_use")), first
    else:
        t = typed_use(ctx, kid(tree, "value_use"), first)
    attrs = _unit(tree, "bufz_read_only", "read_only")
    attrs.update(_attrs(ctx, tree))
    return Op("bufferization.to_buffer", [t], [res_t], attrs, loc=ctx.loc(tree))


@prints("bufferization.to_buffer")
def print_to_buffer(p: Any, op: Op) -> str:
    (t,) = op.operands
    s = "bufferization.to_buffer " + p.value(t)
    if "read_only" in op.attrs:
        s += " read_only"
    return (s + attr_dict(p, op, ("read_only",))
            + f" : {p.type(t.type)} to {p.type(op.result.type)}")


# -- alloc_tensor ----------------------------------------------------------------------

@builds("bufz_alloc_tensor")
def build_alloc_tensor(ctx: Any, tree: Tree) -> Op:
    dyn = list(ctx.uses(kid(tree, "value_use_list")))
    cp = kid(tree, "bufz_copy")
    copy = [ctx.use(kid(cp, "value_use"))] if cp is not None else []
    sh = kid(tree, "bufz_size_hint")
    hint = [ctx.use(kid(sh, "value_use"))] if sh is not None else []
    attrs = _attrs(ctx, tree)
    attrs["operandSegmentSizes"] = segments(len(dyn), len(copy), len(hint))
    return Op("bufferization.alloc_tensor", [*dyn, *copy, *hint],
              [ctx.type(kid(tree, "type"))], attrs, loc=ctx.loc(tree))


@prints("bufferization.alloc_tensor")
def print_alloc_tensor(p: Any, op: Op) -> str:
    parts = alloc_tensor_parts(op)
    s = "bufferization.alloc_tensor(" + p.values(parts.dynamic_sizes) + ")"
    if parts.copy is not None:
        s += " copy(" + p.value(parts.copy) + ")"
    if parts.size_hint is not None:
        s += " size_hint=" + p.value(parts.size_hint)
    return s + attr_dict(p, op, ("operandSegmentSizes",)) + " : " + p.type(op.result.type)


# -- materialize_in_destination --------------------------------------------------------

@builds("bufz_materialize")
def build_materialize(ctx: Any, tree: Tree) -> Op:
    ty_node = kid(tree, "type")
    fn = ctx.type(ty_node)
    if not isinstance(fn, FunctionType) or len(fn.inputs) != 2:
        ctx.error(ty_node, "materialize_in_destination expects `(src_type, dest_type) -> res`")
    src, dst = (typed_use(ctx, n, t)
                for n, t in zip(kids(tree, "value_use"), fn.inputs, strict=True))
    attrs = {**_unit(tree, "bufz_restrict", "restrict"), **_unit(tree, "bufz_writable", "writable")}
    attrs.update(_attrs(ctx, tree))
    return Op("bufferization.materialize_in_destination", [src, dst], list(fn.results), attrs,
              loc=ctx.loc(tree))


@prints("bufferization.materialize_in_destination")
def print_materialize(p: Any, op: Op) -> str:
    src, dst = op.operands
    s = f"bufferization.materialize_in_destination {p.value(src)} in "
    for k in ("restrict", "writable"):
        if k in op.attrs:
            s += k + " "
    s += p.value(dst) + attr_dict(p, op, ("restrict", "writable"))
    fn = FunctionType((src.type, dst.type), tuple(r.type for r in op.results))
    return s + " : " + p.type(fn)


# -- clone -----------------------------------------------------------------------------

@builds("bufz_clone")
def build_clone(ctx: Any, tree: Tree) -> Op:
    first = ctx.type(kid(tree, "type"))
    src_t, res_t = first, _to_type(ctx, tree)
    if res_t is None:
        if isinstance(first, FunctionType) and len(first.inputs) == len(first.results) == 1:
            src_t, res_t = first.inputs[0], first.results[0]  # old form `: (T) -> (U)`
        else:
            res_t = first
    m = typed_use(ctx, kid(tree, "value_use"), src_t)
    return Op("bufferization.clone", [m], [res_t], _attrs(ctx, tree), loc=ctx.loc(tree))


@prints("bufferization.clone")
def print_clone(p: Any, op: Op) -> str:
    (m,) = op.operands
    return (f"bufferization.clone {p.value(m)}" + attr_dict(p, op)
            + f" : {p.type(m.type)} to {p.type(op.result.type)}")


# -- dealloc ---------------------------------------------------------------------------

def _typed_uses(ctx: Any, node: Tree) -> list[Value]:
    return typed_uses(ctx, kid(node, "value_use_list"), ctx.types(kid(node, "type_list")))


@builds("bufz_dealloc")
def build_dealloc(ctx: Any, tree: Tree) -> Op:
    memrefs: list[Value] = []
    conds: list[Value] = []
    mr = kid(tree, "bufz_dealloc_memrefs")
    if mr is not None:
        memrefs = _typed_uses(ctx, mr)
        conds = typed_uses(ctx, kids(mr, "value_use_list")[1], [IntegerType(1)] * len(memrefs))
    rt = kid(tree, "bufz_retain")
    retained = _typed_uses(ctx, rt) if rt is not None else []
    attrs = _attrs(ctx, tree)
    attrs["operandSegmentSizes"] = segments(len(memrefs), len(conds), len(retained))
    return Op("bufferization.dealloc", [*memrefs, *conds, *retained],
              [IntegerType(1)] * len(retained), attrs, loc=ctx.loc(tree))


@prints("bufferization.dealloc")
def print_dealloc(p: Any, op: Op) -> str:
    d = dealloc_parts(op)
    s = "bufferization.dealloc"
    if d.memrefs:
        s += (" (" + p.values(d.memrefs) + " : " + ", ".join(p.type(v.type) for v in d.memrefs)
              + ") if (" + p.values(d.conditions) + ")")
    if d.retained:
        s += (" retain (" + p.values(d.retained) + " : "
              + ", ".join(p.type(v.type) for v in d.retained) + ")")
    return s + attr_dict(p, op, ("operandSegmentSizes",))
