"""The implicit parts of named linalg ops, for printing them in MLIR's generic form.

A named structured op (``linalg.matmul``, ``linalg.fill``, ``linalg.conv_2d_*``, ...) has
a region in MLIR -- its scalar body -- that the custom syntax hides, and a few properties
with defaults (``indexing_maps`` of ``matmul``/``batch_matmul``/``batch_reduce_matmul``/
``elementwise``). The frontend does not keep either (see ``linalg.py``); the generic form
needs both, so :func:`generic_parts` synthesizes them from the op's operand types.

Bodies are data: :data:`BODIES` maps each op to a scalar expression over the block
arguments (one per operand, of the operands' element types), written with the helpers
below. The scalar functions follow the linalg op definitions (OpDSL):

* ``("add", a, b)`` etc. pick the arith/math/complex op by the operands' element type
  (float / signless integer / i1 / complex) from :data:`BINARY_FNS`; a missing entry is
  a combination MLIR rejects ("unsigned max" on floats, ``sub`` on i1, ...);
* unary functions exist on floats only (:data:`UNARY_FNS`);
* ``cast(i)`` converts operand ``i`` to the output element type (``arith.extf``,
  ``sitofp``, ``trunci``, ``index_cast``, ...), signed unless the op says unsigned -- the
  ``*_unsigned`` poolings always, ``copy``/``matmul``/``batch_matmul``/``contract`` when
  their ``cast`` attribute is ``#linalg.type_fn<cast_unsigned>``.

Casts into ``complex<F>`` build ``complex.create`` from the converted real part (or the
converted ``complex.re``/``complex.im``) and a zero. The generic form also shows the
default ``indexing_maps`` (:data:`DEFAULT_MAPS`) and, for ops MLIR defines with OpDSL, the
``linalg.memoized_indexing_maps`` cache MLIR's verifier fills in (:data:`OPDSL_MAPS`,
with ``strides``/``dilations`` applied).

Anything MLIR could not build or would not verify (no scalar op for the type, no cast,
a yielded type that is not the output element type, wrong operand counts, ``contract``
without ``indexing_maps``) raises :class:`GenericFormError` at the op's location: the
generic printer never emits a body MLIR would reject.
"""

from __future__ import annotations

from bufferlog.core import UserError

from ..attrs import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
)
from ..ir import Block, Op, Region, Value
from ..types import (
    ComplexType,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
    VectorType,
)

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

    Expr = tuple[Any, ...]

I32 = IntegerType(32)
I64 = IntegerType(64)
F64 = FloatType("f64")


class GenericFormError(UserError):
    """A named op whose implicit body cannot be built for its operand types."""


# -- expression helpers (the notation of BODIES) -------------------------------------------

OUT: Expr = ("out",)  # the output's block argument (the accumulator)


def arg(i: int) -> Expr:
    """Block argument ``i`` (operand ``i``), unconverted."""
    return ("arg", i)


def cast(e: Expr | int, mode: str = "signed") -> Expr:
    """``e`` (or operand ``e``) converted to the output element type. ``mode``:
    ``signed``, ``unsigned`` or ``attr`` (the op's ``cast`` attribute, signed by default)."""
    return ("cast", arg(e) if isinstance(e, int) else e, mode)


def cast_to(t: Any, e: Expr) -> Expr:
    """``e`` converted (signed) to the fixed type ``t``."""
    return ("cast_to", e, t)


def const(value: int | float, t: Any) -> Expr:
    return ("const", value, t)


def index(dim: int) -> Expr:
    return ("index", dim)


def fn(name: str, *operands: Expr) -> Expr:
    return (name, *operands)


# -- scalar functions -----------------------------------------------------------------------

#: binary function -> op for (float, signless int, i1, complex) operands; None: unsupported
BINARY_FNS: dict[str, tuple[str | None, str | None, str | None, str | None]] = {
    "add": ("arith.addf", "arith.addi", "arith.ori", "complex.add"),
    "sub": ("arith.subf", "arith.subi", None, "complex.sub"),
    "mul": ("arith.mulf", "arith.muli", "arith.andi", "complex.mul"),
    "div": ("arith.divf", "arith.divsi", None, "complex.div"),
    "div_unsigned": (None, "arith.divui", None, None),
    "max_signed": ("arith.maximumf", "arith.maxsi", "arith.maxsi", None),
    "min_signed": ("arith.minimumf", "arith.minsi", "arith.minsi", None),
    "max_unsigned": (None, "arith.maxui", None, None),
    "min_unsigned": (None, "arith.minui", None, None),
    "powf": ("math.powf", None, None, None),
}
_CLASS_COLUMN = {"float": 0, "int": 1, "bool": 2, "complex": 3}

#: unary function -> op on float operands (the only element types they support).
#: ``square`` is ``x * x``; ``reciprocal`` is ``1.0 / x``.
UNARY_FNS: dict[str, str] = {
    "abs": "math.absf", "ceil": "math.ceil", "erf": "math.erf", "exp": "math.exp",
    "floor": "math.floor", "log": "math.log", "negf": "arith.negf", "round": "math.round",
    "rsqrt": "math.rsqrt", "sqrt": "math.sqrt", "tanh": "math.tanh",
    "square": "arith.mulf", "reciprocal": "arith.divf",
}

#: ops MLIR gives a ``fastmath`` / ``overflowFlags`` property (printed in generic form)
_FASTMATH_OPS = frozenset({
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf",
    "arith.minimumf", "arith.negf", "math.absf", "math.ceil", "math.erf", "math.exp",
    "math.floor", "math.log", "math.round", "math.rsqrt", "math.sqrt", "math.tanh",
    "math.powf", "complex.add", "complex.sub", "complex.mul", "complex.div", "complex.re",
    "complex.im",
})
_OVERFLOW_OPS = frozenset({"arith.addi", "arith.subi", "arith.muli", "arith.trunci"})
_FASTMATH_NONE = OpaqueAttr("#arith.fastmath<none>")
_OVERFLOW_NONE = OpaqueAttr("#arith.overflow<none>")
_DEFAULT_FLAGS = frozenset({str(_FASTMATH_NONE), str(_OVERFLOW_NONE)})  # = left out


# -- the table ------------------------------------------------------------------------------

#: ``O += cast(I0) * cast(I1)``: contractions, convolutions, depthwise convolutions
MAC = fn("add", OUT, fn("mul", cast(0), cast(1)))
#: the same honouring the op's ``cast`` attribute
MAC_ATTR = fn("add", OUT, fn("mul", cast(0, "attr"), cast(1, "attr")))
#: ``O += (cast(I0) - cast(I0_zp)) * (cast(I1) - cast(I1_zp))``: quantized variants
MAC_Q = fn("add", OUT, fn("mul", fn("sub", cast(0), cast(2)), fn("sub", cast(1), cast(3))))


def _pool(f: str, mode: str = "signed") -> Expr:
    """``O = f(O, cast(I))``; the window operand (#1) only shapes the iteration."""
    return fn(f, OUT, cast(0, mode))


def _fill_rng_2d() -> Expr:
    """A linear congruential generator over the two loop indices, scaled to
    ``[min, max)`` (operands: min f64, max f64, seed i32)."""
    mult = cast_to(I32, const(1103515245, I64))
    incr = cast_to(I32, const(12345, I64))
    rand1 = fn("add", fn("mul", fn("add", cast_to(I32, index(0)), arg(2)), mult), incr)
    rand2 = fn("add", fn("mul", fn("add", cast_to(I32, index(1)), rand1), mult), incr)
    offset = cast_to(F64, const(2147483647, I64))
    scaling = fn("mul", fn("sub", arg(1), arg(0)), const(2.3283064e-10, F64))
    return cast(fn("add", fn("mul", fn("add", offset, cast_to(F64, rand2)), scaling), arg(0)))


_UNARY_OPS = "abs ceil erf exp floor log negf reciprocal round rsqrt sqrt square tanh"
_BINARY_OPS = {"add": "add", "sub": "sub", "mul": "mul", "div": "div",
               "div_unsigned": "div_unsigned", "max": "max_signed", "min": "min_signed",
               "powf": "powf"}
_MAC_OPS = (
    "batch_matvec batch_mmt4d batch_reduce_matmul batch_vecmat dot matvec mmt4d vecmat "
    "conv_1d conv_2d conv_3d conv_1d_ncw_fcw conv_1d_nwc_wcf conv_2d_nchw_fchw "
    "conv_2d_ngchw_fgchw conv_2d_ngchw_gfchw conv_2d_nhwc_fhwc conv_2d_nhwc_hwcf "
    "conv_2d_nhwgc_gfhwc conv_3d_ncdhw_fcdhw conv_3d_ndhwc_dhwcf depthwise_conv_1d_ncw_cw "
    "depthwise_conv_1d_nwc_wc depthwise_conv_1d_nwc_wcm depthwise_conv_2d_nchw_chw "
    "depthwise_conv_2d_nhwc_hwc depthwise_conv_2d_nhwc_hwcm depthwise_conv_3d_ncdhw_cdhw "
    "depthwise_conv_3d_ndhwc_dhwc depthwise_conv_3d_ndhwc_dhwcm"
)
_MAC_Q_OPS = (
    "quantized_batch_matmul quantized_matmul conv_2d_nchw_fchw_q conv_2d_ngchw_gfchw_q "
    "conv_2d_nhwc_fhwc_q conv_2d_nhwc_hwcf_q conv_2d_nhwgc_gfhwc_q conv_3d_ndhwc_dhwcf_q "
    "depthwise_conv_2d_nhwc_hwc_q depthwise_conv_2d_nhwc_hwcm_q"
)
_POOL_FNS = {"max": ("max_signed", "signed"), "min": ("min_signed", "signed"),
             "sum": ("add", "signed"), "max_unsigned": ("max_unsigned", "unsigned"),
             "min_unsigned": ("min_unsigned", "unsigned")}
_POOL_OPS = (
    "pooling_nchw_max pooling_nchw_sum pooling_ncw_max pooling_ncw_sum pooling_ndhwc_max "
    "pooling_ndhwc_min pooling_ndhwc_sum pooling_nhwc_max pooling_nhwc_max_unsigned "
    "pooling_nhwc_min pooling_nhwc_min_unsigned pooling_nhwc_sum pooling_nwc_max "
    "pooling_nwc_max_unsigned pooling_nwc_min pooling_nwc_min_unsigned pooling_nwc_sum"
)


def _pool_fn(name: str) -> Expr:
    layout_and_fn = name[len("pooling_"):]
    f, mode = _POOL_FNS[layout_and_fn.split("_", 1)[1]]
    return _pool(f, mode)


#: op name (without ``linalg.``) -> its body expression; ``elementwise`` is per ``kind``
BODIES: dict[str, Expr] = {
    **{n: fn(n, arg(0)) for n in _UNARY_OPS.split()},
    **{n: fn(f, arg(0), arg(1)) for n, f in _BINARY_OPS.items()},
    "select": fn("select", arg(0), arg(1), arg(2)),
    "copy": cast(0, "attr"),
    "fill": arg(0),  # the value must already have the output element type
    "fill_rng_2d": _fill_rng_2d(),
    "matmul": MAC_ATTR, "batch_matmul": MAC_ATTR, "contract": MAC_ATTR,
    **{n: MAC for n in _MAC_OPS.split()},
    **{n: MAC_Q for n in _MAC_Q_OPS.split()},
    **{n: _pool_fn(n) for n in _POOL_OPS.split()},
    "transpose": arg(0),
    "broadcast": arg(0),
}

#: ``linalg.elementwise`` kinds -> body
ELEMENTWISE_KINDS: dict[str, Expr] = {
    **{n: fn(n, arg(0)) for n in _UNARY_OPS.split()},
    **{f: fn(f, arg(0), arg(1)) for f in BINARY_FNS},
    "select": fn("select", arg(0), arg(1), arg(2)),
}

#: default ``indexing_maps`` of the ops that carry them as a property (by output rank
#: for ``elementwise``: identity maps, one per operand)
DEFAULT_MAPS: dict[str, tuple[str, ...]] = {
    "matmul": ("(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)",
               "(d0, d1, d2) -> (d0, d1)"),
    "batch_matmul": ("(d0, d1, d2, d3) -> (d0, d1, d3)", "(d0, d1, d2, d3) -> (d0, d3, d2)",
                     "(d0, d1, d2, d3) -> (d0, d1, d2)"),
    "batch_reduce_matmul": ("(d0, d1, d2, d3) -> (d0, d1, d3)",
                            "(d0, d1, d2, d3) -> (d0, d3, d2)",
                            "(d0, d1, d2, d3) -> (d1, d2)"),
}


#: Indexing maps of the OpDSL-defined ops, which MLIR caches on the op as the discardable
#: attribute ``linalg.memoized_indexing_maps`` (and so shows in the generic form).
#: ``"dims: map; map; ..."`` with one map per operand (empty for a scalar operand); a
#: result ``o+k`` is a window access ``o * stride[i] + k * dilation[i]`` with ``i``
#: counting the window results of that map (``strides``/``dilations`` default to 1).
OPDSL_MAPS: dict[str, str] = {
    "matvec": "m k: m, k; k; m",
    "vecmat": "n k: k; k, n; n",
    "dot": "k: k; k; ",
    "batch_matvec": "b m k: b, m, k; b, k; b, m",
    "batch_vecmat": "b n k: b, k; b, k, n; b, n",
    "mmt4d": "m n k m0 n0 k0: m, k, m0, k0; n, k, n0, k0; m, n, m0, n0",
    "batch_mmt4d": "b m n k m0 n0 k0: b, m, k, m0, k0; b, n, k, n0, k0; b, m, n, m0, n0",
    "quantized_matmul": "m n k: m, k; k, n; ; ; m, n",
    "quantized_batch_matmul": "b m n k: b, m, k; b, k, n; ; ; b, m, n",
    "conv_1d": "ow kw: ow+kw; kw; ow",
    "conv_2d": "oh ow kh kw: oh+kh, ow+kw; kh, kw; oh, ow",
    "conv_3d": "od oh ow kd kh kw: od+kd, oh+kh, ow+kw; kd, kh, kw; od, oh, ow",
    "conv_1d_ncw_fcw": "n f ow c kw: n, c, ow+kw; f, c, kw; n, f, ow",
    "conv_1d_nwc_wcf": "n ow f kw c: n, ow+kw, c; kw, c, f; n, ow, f",
    "conv_2d_nchw_fchw": "n f oh ow c kh kw: n, c, oh+kh, ow+kw; f, c, kh, kw; n, f, oh, ow",
    "conv_2d_nhwc_fhwc": "n oh ow f kh kw c: n, oh+kh, ow+kw, c; f, kh, kw, c; n, oh, ow, f",
    "conv_2d_nhwc_hwcf": "n oh ow f kh kw c: n, oh+kh, ow+kw, c; kh, kw, c, f; n, oh, ow, f",
    "conv_2d_ngchw_fgchw": "n g f oh ow c kh kw: n, g, c, oh+kh, ow+kw; f, g, c, kh, kw; "
                           "n, g, f, oh, ow",
    "conv_2d_ngchw_gfchw": "n g f oh ow c kh kw: n, g, c, oh+kh, ow+kw; g, f, c, kh, kw; "
                           "n, g, f, oh, ow",
    "conv_2d_nhwgc_gfhwc": "n oh ow g f kh kw c: n, oh+kh, ow+kw, g, c; g, f, kh, kw, c; "
                           "n, oh, ow, g, f",
    "conv_3d_ncdhw_fcdhw": "n f od oh ow c kd kh kw: n, c, od+kd, oh+kh, ow+kw; "
                           "f, c, kd, kh, kw; n, f, od, oh, ow",
    "conv_3d_ndhwc_dhwcf": "n od oh ow f kd kh kw c: n, od+kd, oh+kh, ow+kw, c; "
                           "kd, kh, kw, c, f; n, od, oh, ow, f",
    "depthwise_conv_1d_ncw_cw": "n ow c kw: n, c, ow+kw; c, kw; n, c, ow",
    "depthwise_conv_1d_nwc_wc": "n ow c kw: n, ow+kw, c; kw, c; n, ow, c",
    "depthwise_conv_1d_nwc_wcm": "n ow c m kw: n, ow+kw, c; kw, c, m; n, ow, c, m",
    "depthwise_conv_2d_nchw_chw": "n oh ow c kh kw: n, c, oh+kh, ow+kw; c, kh, kw; n, c, oh, ow",
    "depthwise_conv_2d_nhwc_hwc": "n oh ow c kh kw: n, oh+kh, ow+kw, c; kh, kw, c; n, oh, ow, c",
    "depthwise_conv_2d_nhwc_hwcm": "n oh ow c m kh kw: n, oh+kh, ow+kw, c; kh, kw, c, m; "
                                   "n, oh, ow, c, m",
    "depthwise_conv_3d_ncdhw_cdhw": "n od oh ow kd kh kw c: n, c, od+kd, oh+kh, ow+kw; "
                                    "c, kd, kh, kw; n, c, od, oh, ow",
    "depthwise_conv_3d_ndhwc_dhwc": "n od oh ow kd kh kw c: n, od+kd, oh+kh, ow+kw, c; "
                                    "kd, kh, kw, c; n, od, oh, ow, c",
    "depthwise_conv_3d_ndhwc_dhwcm": "n od oh ow m kd kh kw c: n, od+kd, oh+kh, ow+kw, c; "
                                     "kd, kh, kw, c, m; n, od, oh, ow, c, m",
}


_POOL_LAYOUT_MAPS = {
    "nchw": "n c oh ow kh kw: n, c, oh+kh, ow+kw; kh, kw; n, c, oh, ow",
    "nhwc": "n oh ow c kh kw: n, oh+kh, ow+kw, c; kh, kw; n, oh, ow, c",
    "ncw": "n c ow kw: n, c, ow+kw; kw; n, c, ow",
    "nwc": "n ow c kw: n, ow+kw, c; kw; n, ow, c",
    "ndhwc": "n od oh ow c kd kh kw: n, od+kd, oh+kh, ow+kw, c; kd, kh, kw; n, od, oh, ow, c",
}
OPDSL_MAPS.update({n: _POOL_LAYOUT_MAPS[n.split("_")[1]] for n in _POOL_OPS.split()})
#: ops whose windows have no strides / dilations attributes
_UNIT_WINDOWS = frozenset({"conv_1d", "conv_2d", "conv_3d"})


def _with_zero_points(spec: str) -> str:
    """A quantized convolution's maps: the plain one's, with two scalar zero points
    between the kernel and the output."""
    dims, maps = spec.split(":", 1)
    m = maps.split(";")
    return dims + ":" + ";".join([*m[:2], " ", " ", *m[2:]])


OPDSL_MAPS.update({q: _with_zero_points(OPDSL_MAPS[q[:-2]])
                   for q in _MAC_Q_OPS.split() if q.endswith("_q")})


def opdsl_maps(op: Op) -> tuple[str, ...] | None:
    """The affine maps MLIR memoizes for ``op`` (texts), or None: not an OpDSL op, or
    ``strides``/``dilations`` this frontend cannot read (the cache is then left out)."""
    short = op.name.removeprefix("linalg.")
    spec = OPDSL_MAPS.get(short)
    if spec is None:
        return None
    dims_text, maps_text = spec.split(":", 1)
    names = dims_text.split()
    dim = {n: f"d{i}" for i, n in enumerate(names)}
    maps = [m.strip() for m in maps_text.split(";")]
    n_window = max(m.count("+") for m in maps)
    attrs = {} if short in _UNIT_WINDOWS else op.attrs
    strides = _int_list(attrs.get("strides"), n_window)
    dilations = _int_list(attrs.get("dilations"), n_window)
    if strides is None or dilations is None:
        return None
    head = "(" + ", ".join(dim[n] for n in names) + ") -> "
    out = []
    for m in maps:
        results, w = [], 0
        for r in (x.strip() for x in m.split(",") if x.strip()):
            if "+" in r:
                o, k = r.split("+")
                results.append(f"{_scaled(dim[o], strides[w])} + {_scaled(dim[k], dilations[w])}")
                w += 1
            else:
                results.append(dim[r])
        out.append(head + "(" + ", ".join(results) + ")")
    return tuple(out)


def window_rank(name: str) -> int | None:
    """How many window dimensions ``strides`` / ``dilations`` of convolution or pooling
    ``name`` (``linalg.conv_2d_nhwc_hwcf``) have; None for ops without them."""
    short = name.removeprefix("linalg.")
    spec = OPDSL_MAPS.get(short)
    if spec is None or short in _UNIT_WINDOWS:
        return None
    n = max(m.count("+") for m in spec.split(":", 1)[1].split(";"))
    return n or None


def int_list(a: Any, n: int) -> list[int] | None:
    """``strides``-like attribute values as n ints (absent: all 1), None if unreadable."""
    return _int_list(a, n)


def _scaled(d: str, k: int) -> str:
    return d if k == 1 else f"{d} * {k}"


def _int_list(a: Any, n: int) -> list[int] | None:
    """``strides``-like attribute values (``dense<2>``, ``dense<[2, 3]>``, ``array<i64:
    ..>``) as n ints; absent: all 1; None when unreadable or of another length."""
    if a is None:
        return [1] * n
    try:
        if isinstance(a, DenseArrayAttr):
            vals = [int(v) for v in a.values]
        elif isinstance(a, DenseElementsAttr):
            text = a.text.strip()
            vals = [int(v, 0) for v in text.strip("[]").split(",")] if text else []
            if a.is_splat():
                vals = vals * n
        else:
            return None
    except ValueError:
        return None
    return vals if len(vals) == n else None


# -- building -------------------------------------------------------------------------------


def _elem(t: Any) -> Any:
    """Element type of a shaped operand; a scalar operand (``complex<f32>`` too) itself."""
    shaped = (TensorType, UnrankedTensorType, MemRefType, UnrankedMemRefType, VectorType)
    return t.elem if isinstance(t, shaped) else t


def _class(t: Any) -> str:
    if isinstance(t, FloatType):
        return "float"
    if isinstance(t, IntegerType):
        if t.signedness:
            return "signed-or-unsigned"
        return "bool" if t.width == 1 else "int"
    if isinstance(t, ComplexType):
        return "complex"
    if isinstance(t, IndexType):
        return "index"
    return "other"


class _Body:
    """Emits the ops of one body into ``block``; ``fail`` raises the located error."""

    def __init__(self, op: Op, block: Block, n_ins: int):
        self.op = op
        self.block = block
        self.n_ins = n_ins
        self.out_t = block.args[-1].type
        self.cast_attr = _cast_attr_mode(op)

    def fail(self, msg: str) -> None:
        raise GenericFormError(f"cannot print '{self.op.name}' in generic form: {msg}",
                               self.op.loc)

    def emit(self, name: str, operands: list[Value], result_t: Any,
             attrs: dict[str, Any] | None = None) -> Value:
        a = dict(attrs or {})
        if name in _FASTMATH_OPS:
            a["fastmath"] = _FASTMATH_NONE
        elif name in _OVERFLOW_OPS:
            a["overflowFlags"] = _OVERFLOW_NONE
        o = Op(name, operands, [result_t], a)
        self.block.append(o)
        return o.result

    def value(self, e: Expr) -> Value:
        head = e[0]
        if head == "out":
            return self.block.args[-1]
        if head == "arg":
            if e[1] >= self.n_ins:
                self.fail(f"expects at least {e[1] + 1} input operands, got {self.n_ins}")
            return self.block.args[e[1]]
        if head == "cast":
            mode = self.cast_attr if e[2] == "attr" else e[2]
            return self.convert(self.value(e[1]), self.out_t, mode == "unsigned")
        if head == "cast_to":
            return self.convert(self.value(e[1]), e[2], False)
        if head == "const":
            value, t = e[1], e[2]
            attr = (FloatAttr(float(value), t) if isinstance(t, FloatType)
                    else IntegerAttr(int(value), t))
            return self.emit("arith.constant", [], t, {"value": attr})
        if head == "index":
            return self.emit("linalg.index", [], IndexType(), {"dim": IntegerAttr(e[1], I64)})
        operands = [self.value(x) for x in e[1:]]
        if head == "select":
            return self.select(operands)
        if len(operands) == 1:
            return self.unary(head, operands[0])
        return self.binary(head, operands[0], operands[1])

    def unary(self, f: str, x: Value) -> Value:
        t = x.type
        if _class(t) != "float":
            self.fail(f"'{f}' needs a floating-point operand, got {t}")
        if f == "square":
            return self.emit("arith.mulf", [x, x], t)
        if f == "reciprocal":
            one = self.emit("arith.constant", [], t, {"value": FloatAttr(1.0, t)})
            return self.emit("arith.divf", [one, x], t)
        return self.emit(UNARY_FNS[f], [x], t)

    def binary(self, f: str, a: Value, b: Value) -> Value:
        if a.type != b.type:
            self.fail(f"'{f}' on different element types {a.type} and {b.type}")
        col = _CLASS_COLUMN.get(_class(a.type))
        if col is None:
            self.fail(f"'{f}' is not defined on {a.type}")
        name = BINARY_FNS[f][col]
        if name is None:
            self.fail(f"'{f}' is not defined on {a.type}")
        return self.emit(name, [a, b], a.type)

    def select(self, ops: list[Value]) -> Value:
        cond, a, b = ops
        if cond.type != IntegerType(1):
            self.fail(f"the select condition must be i1, got {cond.type}")
        if a.type != b.type:
            self.fail(f"select between different element types {a.type} and {b.type}")
        return self.emit("arith.select", [cond, a, b], a.type)

    def convert(self, x: Value, to: Any, unsigned: bool) -> Value:
        src = x.type
        if src == to:
            return x
        if isinstance(to, ComplexType):  # complex.create(re, im) of converted parts
            if isinstance(src, ComplexType):
                parts = [self.emit(f"complex.{p}", [x], src.elem) for p in ("re", "im")]
                re, im = (self.convert(v, to.elem, unsigned) for v in parts)
            else:
                re = self.convert(x, to.elem, unsigned)
                im = self.emit("arith.constant", [], to.elem,
                               {"value": FloatAttr(0.0, to.elem)})
            return self.emit("complex.create", [re, im], to)
        name = _cast_name(src, to, unsigned)
        if name is None:
            self.fail(f"no cast from {src} to {to}")
        return self.emit(name, [x], to)


def _cast_name(src: Any, dst: Any, unsigned: bool) -> str | None:
    s, d = _class(src), _class(dst)
    ints = ("int", "bool")
    if s == "index" and d in ints:
        return "arith.index_cast"
    if s in ints and d in ints:
        if src.width < dst.width:
            return "arith.extui" if unsigned else "arith.extsi"
        return "arith.trunci"
    if s in ints and d == "float":
        return "arith.uitofp" if unsigned else "arith.sitofp"
    if s == "float" and d in ints:
        return "arith.fptoui" if unsigned else "arith.fptosi"
    if s == "float" and d == "float" and src.width != dst.width:
        return "arith.extf" if src.width < dst.width else "arith.truncf"
    return None


def _cast_attr_mode(op: Op) -> str:
    a = op.attrs.get("cast")
    return "unsigned" if a is not None and "cast_unsigned" in str(a) else "signed"


def _kind_name(op: Op) -> str | None:
    a = op.attrs.get("kind")
    s = str(a) if a is not None else ""
    return s[s.index("<") + 1:s.rindex(">")].strip() if "<" in s and ">" in s else None


def body_expr(op: Op) -> Expr | None:
    """The body expression of a named op (None: not a named op with an implicit body)."""
    short = op.name.removeprefix("linalg.")
    if short == "elementwise":
        return ELEMENTWISE_KINDS.get(_kind_name(op) or "")
    return BODIES.get(short)


def _ins_outs_count(op: Op) -> tuple[int, int]:
    seg = op.attrs.get("operandSegmentSizes")
    if seg is not None:
        n_in, n_out = list(seg.values)
        return n_in, n_out
    return len(op.operands) - 1, 1  # transpose / broadcast: [input, init]


def implicit_region(op: Op) -> Region:
    """The body region MLIR gives ``op`` (raises :class:`GenericFormError`)."""
    expr = body_expr(op)
    if expr is None:
        kind = _kind_name(op)
        what = f"unknown elementwise kind '{kind}'" if op.name == "linalg.elementwise" \
            else "no known implicit body"
        raise GenericFormError(f"cannot print '{op.name}' in generic form: {what}", op.loc)
    n_in, n_out = _ins_outs_count(op)
    block = Block([_elem(v.type) for v in op.operands])
    b = _Body(op, block, n_in)
    if n_out != 1:
        b.fail(f"expects one output operand, got {n_out}")
    want = _max_arg(expr) + 1 + (op.name.startswith("linalg.pooling_"))  # + the window
    if want != n_in:
        b.fail(f"expects {want} input operand{'s' if want != 1 else ''}, got {n_in}")
    result = b.value(expr)
    if result.type != b.out_t:
        b.fail(f"its body yields {result.type} but the output element type is {b.out_t}")
    block.append(Op("linalg.yield", [result]))
    return Region([block])


def _max_arg(e: Any) -> int:
    if not isinstance(e, tuple) or not e:
        return -1
    if e[0] == "arg":
        return e[1]
    return max((_max_arg(x) for x in e[1:]), default=-1)


def default_maps(op: Op) -> tuple[str, ...] | None:
    """The default ``indexing_maps`` (affine map texts) of ops that have them as a
    property, else None."""
    short = op.name.removeprefix("linalg.")
    if short in DEFAULT_MAPS:
        return DEFAULT_MAPS[short]
    if short == "elementwise":
        rank = getattr(op.operands[-1].type, "rank", 0) if op.operands else 0
        dims = ", ".join(f"d{i}" for i in range(rank))
        return (f"({dims}) -> ({dims})",) * len(op.operands)
    return None


def has_default_maps(op: Op) -> bool:
    """True when ``op.attrs['indexing_maps']`` spells the default maps (so the custom
    form can leave them out, as mlir-opt does)."""
    want = default_maps(op)
    have = op.attrs.get("indexing_maps")
    if want is None or not isinstance(have, ArrayAttr) or len(have.elems) != len(want):
        return False
    return all(isinstance(a, AffineMapAttr) and "".join(a.text.split()) == "".join(w.split())
               for a, w in zip(have.elems, want, strict=True))


#: where MLIR caches the indexing maps of OpDSL ops
MEMO_KEY = "linalg.memoized_indexing_maps"


def default_attrs(op: Op) -> dict[str, Any]:
    """Attributes MLIR's generic form shows that the custom form leaves implicit: default
    ``indexing_maps`` properties, and the maps cache of OpDSL ops (:data:`OPDSL_MAPS`)."""
    memo = opdsl_maps(op) if MEMO_KEY not in op.attrs else None
    if memo is not None:
        return {MEMO_KEY: ArrayAttr(tuple(AffineMapAttr(t) for t in memo))}
    if "indexing_maps" in op.attrs:
        return {}
    if op.name == "linalg.contract":
        raise GenericFormError("cannot print 'linalg.contract' in generic form: it needs "
                               "'indexing_maps'", op.loc)
    texts = default_maps(op)
    if texts is None:
        return {}
    return {"indexing_maps": ArrayAttr(tuple(AffineMapAttr(t) for t in texts))}


def has_implicit_body(op: Op) -> bool:
    """True when ``op``'s region (e.g. parsed from the generic form) is exactly the body
    MLIR would give it, so the custom form loses nothing by leaving it out."""
    if len(op.regions) != 1:
        return False
    try:
        want = implicit_region(op)
    except GenericFormError:
        return False
    return _signature(op.regions[0]) == _signature(want)


def _attr_key(a: Any) -> Any:
    """Attributes compared by value: ``1.0 : f32`` is ``1.000000e+00 : f32``."""
    if isinstance(a, FloatAttr):
        return ("float", a.value, str(a.type))
    return str(a)


def _signature(r: Region) -> Any:
    """A name-free structural description of a one-block region."""
    if len(r.blocks) != 1:
        return None
    b = r.blocks[0]
    where: dict[int, tuple[Any, ...]] = {id(a): ("arg", i) for i, a in enumerate(b.args)}
    ops = []
    for j, o in enumerate(b.ops):
        if o.regions or o.successors:
            return None
        ops.append((o.name, tuple(where.get(id(v), ("outside",)) for v in o.operands),
                    tuple(str(t.type) for t in o.results),
                    tuple(sorted((k, _attr_key(v)) for k, v in o.attrs.items()
                                 if str(v) not in _DEFAULT_FLAGS))))
        for k, res in enumerate(o.results):
            where[id(res)] = ("op", j, k)
    return tuple(str(a.type) for a in b.args), tuple(ops)


def generic_parts(op: Op) -> tuple[dict[str, Any], list[Any]]:
    """(attributes, regions) of ``op`` as MLIR's generic form has them. An op that already
    has its region (parsed from the generic form) is returned as it is."""
    if op.regions:
        return op.attrs, op.regions
    region = implicit_region(op)
    return {**op.attrs, **default_attrs(op)}, [region]
