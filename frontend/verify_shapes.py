"""Op verifiers over attribute values that name dimensions, as mlir-opt's: the
permutation of ``linalg.transpose``, the added dimensions of ``linalg.broadcast``, the
reassociation of ``tensor.expand_shape`` / ``tensor.collapse_shape`` and the dimension of
``tensor.concat``, each against the ranks and static sizes of the op's types. Each check
takes the op and returns mlir-opt's message, or None (``verify.py`` runs them when it
visits the op)."""

from __future__ import annotations

import math

from . import types as T
from .dialects.tensor import reassociation, static_values
from .ir import Op

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any


def _shape(t: Any) -> tuple[int | None, ...] | None:
    return t.shape if isinstance(t, T.TensorType | T.MemRefType) else None


def transpose(op: Op) -> str | None:
    if len(op.operands) < 2:
        return None
    perm = list(static_values(op.attrs.get("permutation")))
    src, dst = _shape(op.operands[0].type), _shape(op.operands[1].type)
    if sorted(perm) != list(range(len(perm))):
        return "permutation is not valid"
    if src is None or dst is None:
        return None
    if len(src) != len(perm):
        return f"input rank {len(src)} does not match permutation size {len(perm)}"
    if len(dst) != len(perm):
        return f"init rank {len(dst)} does not match permutation size {len(perm)}"
    for i, p in enumerate(perm):
        if src[p] is not None and dst[i] is not None and src[p] != dst[i]:
            return (f"dim(result, {i}) = {dst[i]} doesn't match dim(input, permutation[{i}]) "
                    f"= {src[p]}")
    return None


def broadcast(op: Op) -> str | None:
    if len(op.operands) < 2:
        return None
    dims = list(static_values(op.attrs.get("dimensions")))
    src, dst = _shape(op.operands[0].type), _shape(op.operands[1].type)
    if src is None or dst is None:
        return None
    if len(src) + len(dims) != len(dst):
        return (f"input rank plus added dimensions does not match init rank. input rank: "
                f"{len(src)}, dimensions size: {len(dims)}, init rank: {len(dst)}")
    for i, d in enumerate(dims):
        if not 0 <= d < len(dst):
            return f"dimension {i} is out of range. expected range: [0, {len(dst) - 1}], got: {d}"
    if len(set(dims)) != len(dims):  # mlir-opt 22 then reads past the input's dimensions
        return "dimensions are not unique"
    kept = [j for j in range(len(dst)) if j not in dims]
    for i, j in enumerate(kept):
        if src[i] is not None and dst[j] is not None and src[i] != dst[j]:
            return f"input dim {i} should match init dim {j}. input: {src[i]}, init: {dst[j]}"
    return None


def reshape(op: Op) -> str | None:
    """expand_shape / collapse_shape: one group per collapsed dimension, the groups
    together the expanded dimensions in order, static sizes that multiply out."""
    if not op.operands or not op.results or "reassociation" not in op.attrs:
        return None
    a, b = _shape(op.operands[0].type), _shape(op.results[0].type)
    if a is None or b is None:
        return None
    expanded, collapsed = (a, b) if op.name.endswith("collapse_shape") else (b, a)
    groups = reassociation(op)
    if len(collapsed) != len(groups):
        return (f"expected collapsed rank ({len(collapsed)}) to equal the number of "
                f"reassociation maps ({len(groups)}).")
    flat = [d for g in groups for d in g]
    n = 0 if not flat or min(flat) < 0 else max(flat) + 1
    if flat and n != len(expanded):
        return (f"expected reassociation map #0 to have size equal to the expanded rank "
                f"({len(expanded)}), but it is  {n}.")
    nxt = 0
    for i, g in enumerate(groups):
        for d in g:
            if d != nxt:
                return f"expected reassociation map #{i} to be valid and contiguous."
            nxt += 1
    for i, g in enumerate(groups):
        sizes = [expanded[d] for d in g]
        if None in sizes:
            if collapsed[i] is not None:
                return (f"expected dimension {i} of collapsed type to be dynamic since one or "
                        f"more of the corresponding dimensions in the expanded type is dynamic")
        elif collapsed[i] != math.prod(sizes):
            return f"expected dimension {i} of collapsed type to be static value of {math.prod(sizes)}"
    if op.name.endswith("expand_shape"):
        return output_shape(op)
    return None


def output_shape(op: Op) -> str | None:
    """expand_shape's ``output_shape``: one entry per result dimension; for
    ``memref.expand_shape`` (and, when bufferized, ``tensor.expand_shape``) each static
    result dimension given exactly (mlir-opt 22 does not compare the tensor op's)."""
    static = op.attrs.get("static_output_shape")
    res = _shape(op.results[0].type) if op.results else None
    if static is None or res is None:
        return None
    vals = static_values(static)
    if len(vals) != len(res):
        return (f"expected number of static shape dims to be equal to the output rank "
                f"({len(res)}) but found {len(vals)} inputs instead")
    if op.name == "memref.expand_shape":
        return output_shape_mismatch(op)
    return None


def output_shape_mismatch(op: Op) -> str | None:
    """The first static result dimension of an expand_shape its ``output_shape`` does not
    give (mlir-opt's memref.expand_shape verifier)."""
    vals = static_values(op.attrs.get("static_output_shape"))
    res = _shape(op.results[0].type)
    for pos, (d, v) in enumerate(zip(res, vals, strict=False)):
        if d is not None and d != v:
            return f"invalid output shape provided at pos {pos}"
    return None


def concat(op: Op) -> str | None:
    dim = op.attrs.get("dim")
    shapes = [_shape(v.type) for v in op.operands]
    out = _shape(op.results[0].type) if op.results else None
    if dim is None or out is None or any(s is None for s in shapes):
        return None
    d = dim.value
    if not 0 <= d < len(out):
        return "concatenation dim must be less than the tensor rank"
    inferred: list[int | None] = []
    for k in range(len(out)):
        sizes = [s[k] for s in shapes if len(s) == len(out)]
        static = {x for x in sizes if x is not None}
        if k == d:
            inferred.append(None if None in sizes else sum(sizes))
        else:
            inferred.append(static.pop() if len(static) == 1 else None)
    if any(i is not None and o is not None and i != o for i, o in zip(inferred, out, strict=True)):
        t = op.results[0].type
        dims = "".join(("?" if i is None else str(i)) + "x" for i in inferred)
        return f"result type '{t}'does not match inferred shape 'tensor<{dims}{t.elem}>' static sizes"
    return None


#: op name -> check
CHECKS = {"linalg.transpose": transpose, "linalg.broadcast": broadcast,
          "tensor.expand_shape": reshape, "tensor.collapse_shape": reshape,
          "memref.expand_shape": reshape, "memref.collapse_shape": reshape,
          "tensor.concat": concat}
