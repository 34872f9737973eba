"""Slices checked as mlir-opt-22 checks them: ``tensor.extract_slice``,
``tensor.insert_slice``, ``tensor.parallel_insert_slice`` and ``memref.subview`` (and
``tensor.pad``'s result type against its low / high padding, :func:`pad`).

In MLIR's order, with its messages (located at the op, without the ``'op' op`` prefix):

1. offsets, sizes and strides: as many of each as the sliced type's rank (one list per
   entry, static values and SSA operands together), offsets and sizes not negative;
2. the result (extract, subview) or source (insert) type against the type the sizes
   give, a rank-reduced version allowed (unit dimensions dropped); for ``memref.subview``
   also the memory space and the strided layout MLIR infers (offset ``o + sum(off_i *
   stride_i)``, strides ``stride_i * step_i``, ``?`` where a factor is dynamic, except
   that a zero factor gives 0);
3. every static offset inside its dimension and the last element a static slice reaches
   (``offset + (size - 1) * stride``) too.

Layouts given as affine maps other than the identity are not checked (mlir-opt reads
strides from linear maps; bufferlog treats such a type as unknown here)."""

from __future__ import annotations

from . import attrs as A
from . import types as T
from .dialects import DYNAMIC
from .ir import Op

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

_KEYS = ("static_offsets", "static_sizes", "static_strides")


def _statics(op: Op) -> list[tuple[int, ...]] | None:
    out = []
    for key in _KEYS:
        a = op.attrs.get(key)
        if not isinstance(a, A.DenseArrayAttr):
            return None
        out.append(tuple(a.values))
    return out


def _segment_sizes(op: Op) -> tuple[int, ...] | None:
    seg = op.attrs.get("operandSegmentSizes")
    return tuple(seg.values) if isinstance(seg, A.DenseArrayAttr) else None


def _dyn(v: int | None) -> bool:
    return v is None or v == DYNAMIC


def lists(op: Op, rank: int, first: int) -> str | None:
    """OffsetSizeAndStrideOpInterface: list lengths against ``rank`` (the sliced type's)
    and each other, SSA operand counts (segments from ``first`` on), signs."""
    st = _statics(op)
    if st is None:
        return None
    offs, sizes, strides = st
    if len(offs) != len(sizes):
        return (f"expected mixed offsets rank to match mixed sizes rank ({len(offs)} vs "
                f"{len(sizes)}) so the rank of the result type is well-formed.")
    if len(sizes) != len(strides):
        return (f"expected mixed sizes rank to match mixed strides rank ({len(sizes)} vs "
                f"{len(strides)}) so the rank of the result type is well-formed.")
    seg = _segment_sizes(op)
    for k, (name, vals) in enumerate(zip(("offset", "size", "stride"), st, strict=True)):
        if len(vals) != rank:
            return f"expected {rank} {name} values, got {len(vals)}"
        n_dyn = sum(1 for v in vals if v == DYNAMIC)
        if seg is not None and first + k < len(seg) and seg[first + k] != n_dyn:
            return f"expected {n_dyn} dynamic {name} values"
    for v in offs:
        if v < 0 and v != DYNAMIC:
            return f"expected offsets to be non-negative, but got {v}"
    for v in sizes:
        if v < 0 and v != DYNAMIC:
            return f"expected sizes to be non-negative, but got {v}"
    return None


def in_bounds(shape: tuple[int | None, ...], op: Op) -> str | None:
    """Static offsets inside their dimension; the last element a static slice reaches
    too (MLIR's verifyInBoundsSlice)."""
    offs, sizes, strides = _statics(op)  # type: ignore[misc]
    for i, d in enumerate(shape):
        if d is None or offs[i] == DYNAMIC:
            continue
        if offs[i] >= d:
            return f"offset {i} is out-of-bounds: {offs[i]} >= {d}"
        if sizes[i] == DYNAMIC or strides[i] == DYNAMIC:
            continue
        last = offs[i] + (sizes[i] - 1) * strides[i]
        if last >= d:
            return f"slice along dimension {i} runs out-of-bounds: {last} >= {d}"
    return None


def reduction_mask(original: tuple[int | None, ...],
                   reduced: tuple[int | None, ...]) -> list[int] | None:
    """The dimensions of ``original`` a rank-reduced ``reduced`` drops (each of size 1),
    matched greedily from the left; None when the shapes do not match so."""
    dropped, j = [], 0
    for i, d in enumerate(original):
        if j < len(reduced) and d == reduced[j]:
            j += 1
            continue
        if d != 1:
            return None
        dropped.append(i)
    return dropped if j == len(reduced) else None


def _sizes_shape(op: Op) -> tuple[int | None, ...]:
    return tuple(None if v == DYNAMIC else v for v in _statics(op)[1])  # type: ignore[index]


# -- tensors -------------------------------------------------------------------------------

def _tensor_type(t: Any, shape: tuple[int | None, ...]) -> T.TensorType:
    return T.TensorType(shape, t.elem, None)


def tensor_slice_type(expected: T.TensorType, actual: Any) -> str | None:
    """MLIR's isRankReducedType + produceSliceErrorMsg for tensors."""
    if not isinstance(actual, T.TensorType):
        return None
    if expected.shape == actual.shape and expected.elem == actual.elem:
        return None
    if len(actual.shape) > len(expected.shape):
        return "expected rank to be smaller or equal to the other rank. "
    if reduction_mask(expected.shape, actual.shape) is None:
        return f"expected type to be '{expected}' or a rank-reduced version. (size mismatch) "
    if expected.elem != actual.elem:
        return f"expected element type to be '{expected.elem}'"
    return None


def extract_slice(op: Op) -> str | None:
    if not op.operands or not op.results:
        return None
    src, res = op.operands[0].type, op.results[0].type
    if not isinstance(src, T.TensorType) or not isinstance(res, T.TensorType):
        return None
    bad = lists(op, len(src.shape), 1)
    if bad:
        return bad
    return (tensor_slice_type(_tensor_type(src, _sizes_shape(op)), res)
            or in_bounds(src.shape, op))


def insert_slice(op: Op, parent_check: Any = None) -> str | None:
    """tensor.insert_slice and tensor.parallel_insert_slice (``parent_check``: its parent
    rule, which mlir-opt checks between the lists and the types)."""
    if len(op.operands) < 2:
        return None
    src, dst = op.operands[0].type, op.operands[1].type
    if not isinstance(src, T.TensorType) or not isinstance(dst, T.TensorType):
        return parent_check() if parent_check is not None else None
    bad = lists(op, len(dst.shape), 2) or (parent_check() if parent_check is not None else None)
    if bad:
        return bad
    return (tensor_slice_type(_tensor_type(dst, _sizes_shape(op)), src)
            or in_bounds(dst.shape, op))


# -- memref.subview -------------------------------------------------------------------------

def _mul(a: int | None, b: int | None) -> int | None:
    """MLIR's saturated product: ``?`` if a factor is, unless the other is 0."""
    if a == 0 or b == 0:
        return 0
    return None if a is None or b is None else a * b


def strides_and_offset(t: T.MemRefType) -> tuple[list[int | None], int | None] | None:
    """A memref type's strides and offset (None for ``?``); None when its layout is an
    affine map other than the identity (not read here)."""
    layout = t.layout
    if isinstance(layout, A.StridedLayoutAttr):
        return list(layout.strides), layout.offset
    if layout is not None:
        if not isinstance(layout, A.AffineMapAttr):
            return None
        m = layout.map
        if m.num_syms or m.simplified != tuple(("d", i) for i in range(m.num_dims)):
            return None
    strides: list[int | None] = []
    acc: int | None = 1
    for d in reversed(t.shape):
        strides.append(acc)
        acc = None if acc is None or d is None else acc * d
    return strides[::-1], 0


def _space(t: Any) -> Any:
    s = t.memspace
    if isinstance(s, A.IntegerAttr) and s.value == 0:
        return None
    return s


def _strided_mask(expected: list[int | None], actual: list[int | None],
                  sizes: tuple[int | None, ...], reduced_rank: int) -> list[int] | None:
    """The dimensions a rank-reducing subview drops (MLIR's
    computeMemRefRankReductionMask): the static unit sizes, or when there are more of
    them than dropped dimensions, those whose strides the result lacks (strides counted,
    not placed); None when they cannot be told."""
    rank = len(sizes)
    if rank == reduced_rank:
        return []
    units = [i for i, z in enumerate(sizes) if z == 1]
    if len(units) + reduced_rank == rank:
        return units
    left: dict[int | None, int] = {}
    for st in expected:
        left[st] = left.get(st, 0) + 1
    have: dict[int | None, int] = {}
    for st in actual:
        have[st] = have.get(st, 0) + 1
    out = []
    for d in units:
        st = expected[d]
        if left.get(st, 0) > have.get(st, 0):
            left[st] -= 1
            out.append(d)
        elif left.get(st, 0) < have.get(st, 0):
            return None
    return out if len(out) + reduced_rank == rank else None


def subview(op: Op) -> str | None:
    if not op.operands or not op.results:
        return None
    src, res = op.operands[0].type, op.results[0].type
    if not isinstance(src, T.MemRefType) or not isinstance(res, T.MemRefType):
        return None
    bad = lists(op, len(src.shape), 1)
    if bad:
        return bad
    if _space(src) != _space(res):
        return (f"different memory spaces specified for base memref type '{src}' and "
                f"subview memref type '{res}'")
    base = strides_and_offset(src)
    got = strides_and_offset(res)
    shape = _sizes_shape(op)
    if base is not None:
        b_strides, off = base
        offs, _sizes, steps = _statics(op)  # type: ignore[misc]
        for o, s in zip(offs, b_strides, strict=True):
            step = _mul(None if o == DYNAMIC else o, s)
            off = None if off is None or step is None else off + step
        strides = [_mul(None if st == DYNAMIC else st, s)
                   for st, s in zip(steps, b_strides, strict=True)]
        expected = T.MemRefType(shape, src.elem, A.StridedLayoutAttr(tuple(strides), off),
                                src.memspace)
    else:
        expected = T.MemRefType(shape, src.elem, None, src.memspace)
    head = f"expected result type to be '{expected}' or a rank-reduced version."
    if len(res.shape) > len(shape):
        return ("expected result rank to be smaller or equal to the source rank, but got "
                f"'{res}'")
    dropped = reduction_mask(shape, res.shape)
    if dropped is None:
        return f"{head} (mismatch of result sizes), but got '{res}'"
    if src.elem != res.elem:
        return f"expected result element type to be '{src.elem}', but got '{res}'"
    if base is not None and got is not None:
        layout = f"{head} (mismatch of result layout), but got '{res}'"
        if off != got[1]:
            return layout
        gone = _strided_mask(strides, got[0], shape, len(res.shape))
        if gone is None or [st for i, st in enumerate(strides) if i not in gone] != got[0]:
            return layout
    return in_bounds(src.shape, op)


def pad(op: Op) -> str | None:
    """tensor.pad: the result type against the source padded by static low / high (a
    dynamic entry or source dimension leaves that dimension free; element types are not
    compared, as in mlir-opt)."""
    if not op.operands or not op.results:
        return None
    src, res = op.operands[0].type, op.results[0].type
    lo, hi = op.attrs.get("static_low"), op.attrs.get("static_high")
    if not (isinstance(src, T.TensorType) and isinstance(res, T.TensorType)
            and isinstance(lo, A.DenseArrayAttr) and isinstance(hi, A.DenseArrayAttr)):
        return None
    rank = len(src.shape)
    if len(lo.values) != rank or len(hi.values) != rank:
        return (f"failed to infer expectedType from sourceType '{src}', specified resultType "
                f"is '{res}'")
    shape = tuple(None if d is None or a == DYNAMIC or b == DYNAMIC else d + a + b
                  for d, a, b in zip(src.shape, lo.values, hi.values, strict=True))
    expected = T.TensorType(shape, src.elem, None)
    if len(res.shape) != rank or any(e is not None and r != e
                                     for r, e in zip(res.shape, shape, strict=True)):
        return f"specified type '{res}' does not match the inferred type '{expected}'"
    return None


CHECKS = {"tensor.extract_slice": extract_slice, "tensor.insert_slice": insert_slice,
          "tensor.parallel_insert_slice": insert_slice, "memref.subview": subview,
          "tensor.pad": pad}
