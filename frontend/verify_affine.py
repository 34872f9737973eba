"""The affine ops' verifiers, as mlir-opt-22's: operand counts against the op's map or
set, results, memref ranks and element types, ``affine.yield`` against its parent, the
control-flow edges of ``affine.for`` / ``affine.if``, and MLIR's rules for which values
may be a map's dimensions and symbols.

Dimensions and symbols (MLIR's ``isValidDim`` / ``isValidSymbol``): the *affine scope* of
an op is the region of its closest ancestor that is one (``func.func``,
``builtin.module``); a valid symbol is an index value defined at the top level of that
region or as one of its arguments, a constant, an ``affine.apply`` of symbols, a
``memref.dim`` / ``tensor.dim`` of a value defined at an affine scope's top level (or of
an alloc / view / subview whose size is a symbol), or a value defined above the scope's
op when that op is not isolated from above. A valid dimension is a valid symbol, an
``affine.for`` induction variable, an ``affine.apply`` of dimensions or a dim op of a
top-level value. Each check takes the op and returns mlir-opt's message (after
``'affine.x' op``), or None; ``verify.py`` runs ``ENTRY`` checks when it reaches the op
and ``EXIT`` checks after its regions."""

from __future__ import annotations

from . import attrs as A
from . import types as T
from .ir import BlockArg, Op, OpResult, Region, Value
from .parser import ISOLATED_OPS
from .verify import same_type

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

#: ops with MLIR's AffineScope trait among those the frontend knows
AFFINE_SCOPES = frozenset({"func.func", "builtin.module"})
#: ConstantLike ops that can define an index
CONSTANTS = frozenset({"arith.constant", "index.constant", "ub.poison"})
DIM_OPS = frozenset({"memref.dim", "tensor.dim"})


def affine_scope(op: Op) -> Region | None:
    """The region of ``op``'s closest ancestor with the AffineScope trait."""
    cur = op
    while True:
        parent = cur.parent_op
        if parent is None:
            return None
        if parent.name in AFFINE_SCOPES:
            return cur.parent.parent if cur.parent is not None else None
        cur = parent


def _region_of(v: Value) -> Region | None:
    if isinstance(v, BlockArg):
        return v.block.parent
    if isinstance(v, OpResult) and v.op.parent is not None:
        return v.op.parent.parent
    return None


def _top_level(v: Value) -> bool:
    """Defined directly in an affine scope's region (as an op result or argument)."""
    r = _region_of(v)
    return r is not None and r.parent is not None and r.parent.name in AFFINE_SCOPES


def _up(region: Region | None) -> Region | None:
    """The region enclosing ``region``'s op, unless that op is isolated from above."""
    if region is None or region.parent is None or region.parent.name in ISOLATED_OPS:
        return None
    op = region.parent
    return op.parent.parent if op.parent is not None else None


def _const_int(v: Value) -> int | None:
    if isinstance(v, OpResult) and v.op.name == "arith.constant":
        a = v.op.attrs.get("value")
        if isinstance(a, A.IntegerAttr):
            return a.value
    return None


def valid_symbol(v: Value, region: Region | None) -> bool:
    if not isinstance(v.type, T.IndexType):
        return False
    while True:
        if region is not None and _region_of(v) is region:
            return True
        if isinstance(v, OpResult):
            d = v.op
            if d.name in CONSTANTS:
                return True
            if d.name == "affine.apply":
                return all(valid_symbol(o, region) for o in d.operands)
            if d.name in DIM_OPS:
                return _dim_symbol(d, region)
        elif not isinstance(v, BlockArg):
            return False
        region = _up(region)
        if region is None:
            return False


def valid_dim(v: Value, region: Region | None) -> bool:
    if not isinstance(v.type, T.IndexType):
        return False
    if valid_symbol(v, region):
        return True
    if isinstance(v, BlockArg):
        return v.block.parent_op is not None and v.block.parent_op.name in (
            "affine.for", "affine.parallel")
    if isinstance(v, OpResult):
        d = v.op
        if d.name == "affine.apply":
            return all(valid_dim(o, region) for o in d.operands)
        if d.name in DIM_OPS and d.operands:
            return _top_level(d.operands[0])
    return False


def _dim_symbol(dim_op: Op, region: Region | None) -> bool:
    """A ``memref.dim`` / ``tensor.dim`` result as a symbol (MLIR's isDimOpValidSymbol)."""
    if len(dim_op.operands) < 2:
        return False
    shaped = dim_op.operands[0]
    if _top_level(shaped):
        return True
    if not isinstance(shaped, OpResult):
        return False
    index = _const_int(dim_op.operands[1])
    if index is None:
        return False
    d = shaped.op
    t = shaped.type
    if d.name not in ("memref.view", "memref.subview", "memref.alloc") \
            or not isinstance(t, T.MemRefType) or not 0 <= index < len(t.shape):
        return False
    if t.shape[index] is not None:
        return True
    pos = sum(1 for s in t.shape[:index] if s is None)
    if d.name == "memref.alloc":
        sizes = _segment(d, 0)
    elif d.name == "memref.view":
        sizes = d.operands[2:]
    else:
        sizes = _segment(d, 2)
    return pos < len(sizes) and valid_symbol(sizes[pos], region)


def _segment(op: Op, i: int) -> list[Value]:
    seg = op.attrs.get("operandSegmentSizes")
    if not isinstance(seg, A.DenseArrayAttr) or i >= len(seg.values):
        return []
    start = sum(seg.values[:i])
    return op.operands[start:start + seg.values[i]]


def _dims_and_symbols(op: Op, operands: list[Value], n_dims: int) -> str | None:
    scope = affine_scope(op)
    for k, v in enumerate(operands):
        if k < n_dims:
            if not valid_dim(v, scope):
                return "operand cannot be used as a dimension id"
        elif not valid_symbol(v, scope):
            return "operand cannot be used as a symbol"
    return None


def _map(op: Op, key: str) -> Any:
    a = op.attrs.get(key)
    return a.map if isinstance(a, A.AffineMapAttr) else None


def _index_operands(op: Op, what: str = "variadic of index") -> str | None:
    for i, v in enumerate(op.operands):
        if not isinstance(v.type, T.IndexType):
            return f"operand #{i} must be {what}, but got '{v.type}'"
    return None


# -- checks ----------------------------------------------------------------------------

def apply(op: Op) -> str | None:
    if len(op.results) != 1:
        return "requires one result"
    m = _map(op, "map")
    if m is None:
        return "requires attribute 'map'"
    bad = _index_operands(op)
    if bad:
        return bad
    if len(op.operands) != m.num_inputs:
        return "operand count and affine map dimension and symbol count must match"
    if len(m.results) != 1:
        return "mapping must produce one value"
    return None


def min_max(op: Op) -> str | None:
    if len(op.results) != 1:
        return "requires one result"
    m = _map(op, "map")
    if m is None:
        return "requires attribute 'map'"
    bad = _index_operands(op)
    if bad:
        return bad
    if len(op.operands) != m.num_inputs:
        return "operand count and affine map dimension and symbol count must match"
    if not m.results:
        return "affine map expect at least one result"
    return None


def _access(op: Op, at: int) -> str | None:
    if len(op.operands) <= at:
        return None
    mem = op.operands[at]
    t = mem.type
    if not isinstance(t, T.MemRefType):
        return None
    m = _map(op, "map")
    if m is None:
        return "requires attribute 'map'"
    idx = op.operands[at + 1:]
    if len(m.results) != len(t.shape):
        return "affine map num results must equal memref rank"
    if m.num_inputs != len(idx):
        return "expects as many subscripts as affine map inputs"
    for v in idx:
        if not isinstance(v.type, T.IndexType):
            return "index to load must have 'index' type"
    return _dims_and_symbols(op, idx, m.num_dims)


def load(op: Op) -> str | None:
    if len(op.results) != 1:
        return "requires one result"
    if op.operands and isinstance(op.operands[0].type, T.MemRefType) and op.results \
            and not same_type(op.results[0].type, op.operands[0].type.elem):
        return "result type must match element type of memref"
    return _access(op, 0)


def store(op: Op) -> str | None:
    if op.results:
        return "requires zero results"
    if len(op.operands) >= 2 and isinstance(op.operands[1].type, T.MemRefType) \
            and not same_type(op.operands[0].type, op.operands[1].type.elem):
        return "value to store must have the same type as memref element type"
    return _access(op, 1)


def yield_(op: Op) -> str | None:
    parent = op.parent_op
    if parent is None or parent.name not in ("affine.for", "affine.if", "affine.parallel"):
        return "only terminates affine.if/for/parallel regions"
    if len(parent.results) != len(op.operands):
        return "parent of yield must have same number of results as the yield operands"
    for r, v in zip(parent.results, op.operands, strict=True):
        if not same_type(r.type, v.type):
            return "types mismatch between yield op and its parent"
    return None


def for_(op: Op) -> str | None:
    lb, ub = _map(op, "lowerBoundMap"), _map(op, "upperBoundMap")
    seg = op.attrs.get("operandSegmentSizes")
    if lb is None or ub is None or not isinstance(seg, A.DenseArrayAttr) \
            or len(seg.values) != 3:
        return None
    body = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
    if body is None or not body.args or not isinstance(body.args[0].type, T.IndexType):
        return "expected body to have a single index argument for the induction variable"
    n_lb, n_ub, n_init = seg.values
    ops = op.operands
    if lb.num_inputs:
        bad = _dims_and_symbols(op, ops[:n_lb], lb.num_dims)
        if bad:
            return bad
    if ub.num_inputs:
        bad = _dims_and_symbols(op, ops[n_lb:n_lb + n_ub], ub.num_dims)
        if bad:
            return bad
    if not op.results:
        return None
    n_iter = len(ops) - lb.num_inputs - ub.num_inputs
    if n_iter != len(op.results):
        return "mismatch between the number of loop-carried values and results"
    if len(body.args) - 1 != len(op.results):
        return "mismatch between the number of basic block args and results"
    return None


def if_(op: Op) -> str | None:
    cond = op.attrs.get("condition")
    if not isinstance(cond, A.IntegerSetAttr):
        return "requires an integer set attribute named 'condition'"
    s = cond.set
    if len(op.operands) != s.num_inputs:
        return "operand count and condition integer set dimension and symbol count must match"
    return _dims_and_symbols(op, op.operands, s.num_dims)


def _edge(src: str, dst: str, vals: list[Any], want: list[Any]) -> str | None:
    head = f"along control flow edge from {src} to {dst}: "
    if len(vals) != len(want):
        return head + (f"region branch point has {len(vals)} operands, but region "
                       f"successor needs {len(want)} inputs")
    for i, (v, t) in enumerate(zip(vals, want, strict=True)):
        if not same_type(v, t):
            return head + (f"successor operand type #{i} '{v}' should match successor "
                           f"input type #{i} '{t}'")
    return None


def if_regions(op: Op) -> str | None:
    """RegionBranchOpInterface: with no else region, control flows from the op to its
    results with no values."""
    if len(op.regions) == 2 and not op.regions[1].blocks:
        return _edge("parent", "parent", [], [r.type for r in op.results])
    return None


def for_regions(op: Op) -> str | None:
    """RegionBranchOpInterface: inits to the iter_args and to the results."""
    seg = op.attrs.get("operandSegmentSizes")
    if not isinstance(seg, A.DenseArrayAttr) or len(seg.values) != 3 or not op.regions \
            or not op.regions[0].blocks:
        return None
    body = op.regions[0].blocks[0]
    inits = [v.type for v in op.operands[seg.values[0] + seg.values[1]:]]
    bad = _edge("parent", "Region #0", inits, [a.type for a in body.args[1:]])
    if bad:
        return bad
    return _edge("parent", "parent", inits, [r.type for r in op.results])


def for_exit(op: Op) -> str | None:
    """On leaving affine.for: the interface's edge checks, then its verifyRegions."""
    return for_regions(op) or for_(op)


ENTRY = {"affine.apply": apply, "affine.min": min_max, "affine.max": min_max,
         "affine.load": load, "affine.store": store, "affine.yield": yield_,
         "affine.if": if_}
EXIT = {"affine.for": for_exit, "affine.if": if_regions}
