"""Memref types of bufferized values: what a tensor type becomes, layouts and memory
spaces, and the result types MLIR infers for reshaping views (``expand_shape``,
``collapse_shape``) and subviews. Type computations only: no op is built here."""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import IntegerAttr, StridedLayoutAttr

from bufferlog.core import UserError


class BufferizeError(UserError):
    """Input the rewrite cannot bufferize (a located error)."""


def dynamic_layout(rank: int) -> StridedLayoutAttr:
    return StridedLayoutAttr((None,) * rank, None)


def memref_of(t, layout: str = "identity-layout-map"):
    """The memref type a tensor type becomes (identity or fully dynamic layout; with
    ``infer-layout-map`` the fully dynamic one, except for function results, which take
    the type of the buffers returned)."""
    if isinstance(t, T.UnrankedTensorType):
        return T.UnrankedMemRefType(t.elem)
    if layout in ("fully-dynamic-layout-map", "infer-layout-map"):
        return T.MemRefType(t.shape, t.elem, dynamic_layout(len(t.shape)))
    return T.MemRefType(t.shape, t.elem)


def with_space(t: T.MemRefType, space) -> T.MemRefType:
    """Memref type ``t`` in memory space ``space`` (an attribute, or None; the integer 0 is
    the default space, which MLIR's memref type does not spell)."""
    return T.MemRefType(t.shape, t.elem, t.layout, None if default_space(space) else space)


def default_space(space) -> bool:
    """``space`` (a memref type's memory space attribute) is the default one: none, or 0."""
    return space is None or (isinstance(space, IntegerAttr) and space.value == 0)


def space_of(t):
    """The memory space of buffer type ``t``, None for the default one."""
    space = getattr(t, "memspace", None)
    return None if default_space(space) else space


def in_space(t, like):
    """Type ``t`` in the memory space of memref type ``like`` (views, copies and carried
    buffers stay where their source lives)."""
    space = getattr(like, "memspace", None)
    return t if space is None or isinstance(t, T.UnrankedMemRefType) else with_space(t, space)


def strides_of(t: T.MemRefType) -> tuple[list[int | None], int | None]:
    """(strides, offset) of a ranked memref type; None entries are dynamic."""
    if t.layout is None:
        strides, acc = [], 1
        for d in reversed(t.shape):
            strides.append(acc)
            acc = None if acc is None or d is None else acc * d
        return strides[::-1], 0
    if isinstance(t.layout, StridedLayoutAttr):
        return list(t.layout.strides), t.layout.offset
    raise BufferizeError(f"unsupported memref layout {t.layout}")


def identity(t) -> bool:
    return isinstance(t, T.UnrankedMemRefType) or t.layout is None


def identity_map(t) -> bool:
    """``t``'s layout is the identity map, as MLIR's ``isIdentity`` sees it: no layout, or
    a strided one that spells the identity (offset 0; rank 0, or rank 1 with stride 1)."""
    if identity(t):
        return True
    return (isinstance(t.layout, StridedLayoutAttr) and t.layout.offset == 0
            and tuple(t.layout.strides) in ((), (1,)))


def _mul(a, b):
    return None if a is None or b is None else a * b


def _sat_mul(a, b):
    """MLIR's ``SaturatedInteger`` product: 0 wins over dynamic (None)."""
    return 0 if a == 0 or b == 0 else _mul(a, b)


def expanded_type(src: T.MemRefType, shape: list, groups: list[list[int]]) -> T.MemRefType:
    return in_space(_expanded_type(src, shape, groups), src)


def _expanded_type(src: T.MemRefType, shape: list, groups: list[list[int]]) -> T.MemRefType:
    """Result type of ``memref.expand_shape`` of ``src`` (MLIR's ``computeExpandedType``):
    identity stays identity; otherwise each source stride is spread over its group,
    innermost result dim first. Any strided source can be expanded."""
    if identity_map(src):
        return T.MemRefType(tuple(shape), src.elem)
    strides, offset = strides_of(src)
    rev, at = [], len(shape) - 1
    for group, st in reversed(list(zip(groups, strides, strict=True))):
        for _ in group:
            rev.append(st)
            st = _sat_mul(st, shape[at])
            at -= 1
    out = rev[::-1] + [1] * (len(shape) - len(rev))
    return T.MemRefType(tuple(shape), src.elem, StridedLayoutAttr(tuple(out), offset))


def collapsed_type(src, shape: list, refs: list[int] | None = None) -> T.MemRefType:
    """Result type of ``memref.collapse_shape`` of ``src`` into ``shape`` (MLIR's
    ``computeCollapsedLayoutMap``): identity stays identity; a strided source gives
    each collapsed dimension the stride of source dimension ``refs[g]`` (which
    rules/layouts.dl names, ``collapse_ref``, once it has found the group contiguous),
    and keeps its offset."""
    if identity_map(src):
        return T.MemRefType(tuple(shape), src.elem)
    strides, offset = strides_of(src)
    layout = StridedLayoutAttr(tuple(strides[r] for r in refs), offset)
    return in_space(T.MemRefType(tuple(shape), src.elem, layout), src)


def subview_type(bt, offs, sizes, strides, result_shape):
    """The strided type MLIR infers for a subview of a ``bt`` buffer (offsets, sizes and
    strides: ints, or anything else for a dynamic one) whose result has ``result_shape``."""
    ss, so = strides_of(bt)
    off = so
    for o, s in zip(offs, ss, strict=True):
        step = _sat_mul(o if isinstance(o, int) else None, s)
        off = None if off is None or step is None else off + step
    new_strides = [_mul(s, st if isinstance(st, int) else None) for s, st in zip(ss, strides, strict=True)]
    shape = [z if isinstance(z, int) else None for z in sizes]
    keep = kept_dims(shape, list(result_shape))
    rt = T.MemRefType(tuple(shape[i] for i in keep), bt.elem,
                      StridedLayoutAttr(tuple(new_strides[i] for i in keep), off))
    if rt.layout == StridedLayoutAttr(tuple(strides_of(T.MemRefType(rt.shape, rt.elem))[0]), 0) \
            and all(d is not None for d in rt.shape):
        rt = T.MemRefType(rt.shape, rt.elem)
    return in_space(rt, bt)


def kept_dims(shape, result_shape) -> list[int]:
    """Dimensions kept by a (possibly rank-reducing) slice, as MLIR's rank-reduction
    mask: greedily from the left, a size that matches the next result dimension
    keeps it, a unit size that does not is dropped (sizes [1, 2, 1, 4] into 2x1x4
    drop the first dimension, not the third)."""
    keep, j = [], 0
    for i, d in enumerate(shape):
        r = result_shape[j] if j < len(result_shape) else 0
        if j < len(result_shape) and (d == r or (d != 1 and (d is None or r is None))):
            keep.append(i)
            j += 1
        elif d != 1:
            raise BufferizeError(f"bufferize: slice sizes {shape} do not reduce to {result_shape}")
    if j != len(result_shape):
        raise BufferizeError(f"bufferize: slice sizes {shape} do not reduce to {result_shape}")
    return keep
