"""Linalg structured ops checked as mlir-opt-22 checks them, over their indexing maps
(frontend/affine.py): ``linalg.generic`` and the named ops whose maps the frontend knows
(``DEFAULT_MAPS`` / ``OPDSL_MAPS`` of ``dialects/linalg_bodies.py``: matmul-like ops,
convolutions, poolings), plus ``linalg.index`` against its enclosing op's loops.

In MLIR's order, with its messages:

* a convolution's or pooling's ``strides`` / ``dilations`` are ``dense<..> :
  tensor<Nxi64>`` with one entry per window dimension (the builder reports it in custom
  syntax, at the attribute dictionary), and none is 0 ("unexpected loop dimension for
  convolution op");
* tensor and buffer operands are not mixed;
* one indexing map per operand, each without symbols and with as many results as its
  operand's rank; the maps together are invertible (every loop is some operand
  dimension: "invalid indexing maps are non-invertible: (<all maps' results>)"); each map
  has as many dimensions as the op has loops;
* static shapes: each loop's range is the size of the first operand dimension indexed by
  exactly that loop; each map result evaluated at the first and last iteration must not
  be negative, must be the dimension's size where the result is a loop, and must fit in
  it otherwise ("inferred input/output operand #i has shape's dimension #d to be ...").

Maps are printed in messages as MLIR prints them (:func:`mlir_text`)."""

from __future__ import annotations

from . import attrs as A
from . import types as T
from .affine import AffineMap
from .ir import Op

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

_SHAPED = (T.TensorType, T.MemRefType)


# -- printing simplified expressions as MLIR does -------------------------------------------

def _expr(e: tuple[Any, ...], strong: bool = False) -> str:
    k = e[0]
    if k == "d" or k == "s":
        return f"{k}{e[1]}"
    if k == "c":
        return str(e[1])
    lhs, rhs = e[1], e[2]
    if k != "+":
        if k == "*" and rhs == ("c", -1):
            s = "-" + _expr(lhs, True)
        else:
            s = f"{_expr(lhs, True)} {k} {_expr(rhs, True)}"
        return f"({s})" if strong else s
    if rhs[0] == "*" and rhs[2][0] == "c" and rhs[2][1] < 0:
        c = rhs[2][1]
        if c == -1:
            s = f"{_expr(lhs)} - {_expr(rhs[1], rhs[1][0] == '+')}"
        else:
            s = f"{_expr(lhs)} - {_expr(rhs[1], True)} * {-c}"
    elif rhs[0] == "c" and rhs[1] < 0:
        s = f"{_expr(lhs)} - {-rhs[1]}"
    else:
        s = f"{_expr(lhs)} + {_expr(rhs)}"
    return f"({s})" if strong else s


def mlir_text(num_dims: int, num_syms: int, results: tuple[Any, ...]) -> str:
    """A map as mlir-opt prints it, from its simplified results."""
    head = "(" + ", ".join(f"d{i}" for i in range(num_dims)) + ")"
    if num_syms:
        head += "[" + ", ".join(f"s{i}" for i in range(num_syms)) + "]"
    return head + " -> (" + ", ".join(_expr(r) for r in results) + ")"


def evaluate(e: tuple[Any, ...], dims: list[int]) -> int | None:
    """The value of a simplified expression at ``dims`` (None: a division by zero or a
    symbol)."""
    k = e[0]
    if k == "c":
        return e[1]
    if k == "d":
        return dims[e[1]]
    if k == "s":
        return None
    a, b = evaluate(e[1], dims), evaluate(e[2], dims)
    if a is None or b is None:
        return None
    if k == "+":
        return a + b
    if k == "*":
        return a * b
    if b == 0:
        return None
    if k == "floordiv":
        return a // b
    if k == "ceildiv":
        return -((-a) // b)
    return a % b


# -- the maps of an op ----------------------------------------------------------------------

def indexing_maps(op: Op) -> list[AffineMap] | None:
    """The op's indexing maps, one per operand, when the frontend knows them."""
    from .dialects import linalg_bodies
    a = op.attrs.get("indexing_maps")
    if isinstance(a, A.ArrayAttr):
        if not all(isinstance(m, A.AffineMapAttr) for m in a.elems):
            return None
        return [m.map for m in a.elems]
    if op.name == "linalg.generic":
        return None
    texts = linalg_bodies.default_maps(op) or linalg_bodies.opdsl_maps(op)
    if texts is None:
        return None
    from .affine import parse_map
    return [parse_map(t) for t in texts]


def num_loops(op: Op) -> int | None:
    """The op's loop count (MLIR's getNumLoops) where the frontend can tell."""
    if op.name == "linalg.generic":
        it = op.attrs.get("iterator_types")
        return len(it.elems) if isinstance(it, A.ArrayAttr) else None
    if op.name == "linalg.map":
        t = op.operands[-1].type if op.operands else None
        return len(t.shape) if isinstance(t, _SHAPED) else None
    if op.name == "linalg.reduce":
        t = op.operands[0].type if op.operands else None
        return len(t.shape) if isinstance(t, _SHAPED) else None
    maps = indexing_maps(op)
    return maps[0].num_dims if maps else None


def _shape(t: Any) -> tuple[int | None, ...]:
    return t.shape if isinstance(t, _SHAPED) else ()


# -- checks -------------------------------------------------------------------------------

def window_attrs(op: Op) -> str | None:
    """A convolution's / pooling's ``dilations`` and ``strides`` (ODS constraint)."""
    from .dialects import linalg_bodies
    n = linalg_bodies.window_rank(op.name)
    if n is None:
        return None
    for key in ("dilations", "strides"):
        a = op.attrs.get(key)
        if a is None:
            continue
        t = getattr(a, "type", None)
        if not (isinstance(a, A.DenseElementsAttr) and isinstance(t, T.TensorType | T.VectorType)
                and tuple(t.shape) == (n,) and t.elem == T.IntegerType(64)):
            return (f"attribute '{key}' failed to satisfy constraint: 64-bit signless int "
                    f"elements attribute of shape [{n}]")
    return None


def _zero_window(op: Op) -> bool:
    from .dialects import linalg_bodies
    n = linalg_bodies.window_rank(op.name)
    if n is None:
        return False
    for key in ("dilations", "strides"):
        vals = linalg_bodies.int_list(op.attrs.get(key), n)
        if vals is not None and 0 in vals:
            return True
    return False


def structured(op: Op) -> tuple[str, bool] | None:
    """(message, whether mlir-opt prefixes it with ``'op' op``), or None."""
    bad = window_attrs(op)
    if bad:
        return bad, True
    operands = op.operands
    kinds = {isinstance(v.type, T.TensorType) for v in operands if isinstance(v.type, _SHAPED)}
    if len(kinds) > 1:
        return "expected to have pure tensor or buffer semantics", True
    maps = indexing_maps(op)
    if maps is None:
        return None
    if len(maps) != len(operands):
        return (f"expected the number of indexing_map ({len(maps)}) to be equal to the "
                f"number of input/output operands ({len(operands)})"), True
    for i, (v, m) in enumerate(zip(operands, maps, strict=True)):
        if m.num_syms:
            return f"unexpected symbols in indexing_map #{i}", True
        rank = len(_shape(v.type))
        if len(m.results) != rank:
            return (f"expected operand #{i} rank ({rank}) to match the result rank of "
                    f"indexing_map ({len(m.results)})"), True
    n_dims = max((m.num_dims for m in maps), default=0)
    results = [r for m in maps for r in m.simplified]
    shapes = [s for v in operands for s in _shape(v.type)]
    first: dict[int, int] = {}
    for pos, r in enumerate(results):
        if r[0] == "d" and r[1] not in first:
            first[r[1]] = pos
    if len(first) != n_dims:
        return ("invalid indexing maps are non-invertible: ("
                + mlir_text(n_dims, 0, tuple(results)) + ")"), True
    loops = num_loops(op)
    for i, m in enumerate(maps):
        if loops is not None and m.num_dims != loops:
            return (f"expected indexing_map #{i} to have {loops} dim(s) to match the number "
                    "of loops"), True
    if _zero_window(op):
        return "unexpected loop dimension for convolution op", False
    ranges = [shapes[first[d]] if first[d] < len(shapes) else None for d in range(n_dims)]
    if any(r is None for r in ranges):
        return None
    start = [0] * n_dims
    end = [r - 1 for r in ranges]  # type: ignore[operator]
    for i, (v, m) in enumerate(zip(operands, maps, strict=True)):
        for d, (size, e) in enumerate(zip(_shape(v.type), m.simplified, strict=True)):
            if size is None or size == 0:
                continue
            lo, hi = evaluate(e, start), evaluate(e, end)
            if lo is None or hi is None:
                continue
            inferred = max(lo, hi) + 1
            if min(lo, hi) < 0:
                return (f"unexpected result less than 0 at expression #{d} in "
                        + mlir_text(m.num_dims, m.num_syms, m.simplified)), True
            if e[0] == "d":
                if inferred != size:
                    return (f"inferred input/output operand #{i} has shape's dimension "
                            f"#{d} to be {inferred}, but found {size}"), True
            elif inferred > size:
                return (f"inferred input/output operand #{i} has shape's dimension #{d} "
                        f"to be greater than or equal to {inferred}, but found {size}"), True
    return None


def index(op: Op) -> str | None:
    """linalg.index: ``dim`` not negative and below the enclosing op's loop count."""
    dim = op.attrs.get("dim")
    if not isinstance(dim, A.IntegerAttr):
        return None
    if dim.value < 0:
        return ("attribute 'dim' failed to satisfy constraint: 64-bit signless integer "
                "attribute whose minimum value is 0")
    parent = op.parent_op
    if parent is None or not parent.name.startswith("linalg."):
        return None
    n = num_loops(parent)
    if n is not None and dim.value >= n:
        return (f"expected dim ({dim.value}) to be lower than the number of loops ({n}) of "
                "the enclosing LinalgOp")
    return None

