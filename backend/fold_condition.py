"""The constant value of an ``i1`` condition, as mlir-opt's canonicalizer folds it: an
``arith.constant``, or an ``arith.cmpi`` / ``arith.cmpf`` of two constants (integers and
index; ``f32`` / ``f64`` floats, compared at their own precision, NaN unordered).
``None`` when the value is not known at compile time."""

from __future__ import annotations

import math
import struct

from bufferlog.frontend import types as T
from bufferlog.frontend.ir import Value

#: arith.cmpi predicates by their enum number (eq = 0, ..., uge = 9)
_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
#: arith.cmpf predicates by their enum number (false = 0, oeq, ..., uno, true = 15)
_CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
         "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")
_ORDER = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
          "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}


def _constant(v: Value) -> object | None:
    c = getattr(v, "op", None)
    if c is None or c.name != "arith.constant" or len(c.results) != 1:
        return None
    a = c.attrs.get("value")
    t = c.results[0].type
    x = getattr(a, "value", None)
    if isinstance(t, (T.IntegerType, T.IndexType)):
        return x if isinstance(x, int) else None
    if isinstance(t, T.FloatType) and t.name in ("f32", "f64") and isinstance(x, float):
        return struct.unpack("f", struct.pack("f", x))[0] if t.name == "f32" else x
    return None


def _width(t: object) -> int | None:
    if isinstance(t, T.IndexType):
        return 64
    return getattr(t, "width", None) if isinstance(t, T.IntegerType) else None


def _cmpi(pred: str, a: int, b: int, width: int) -> bool:
    mask = (1 << width) - 1
    a, b = a & mask, b & mask  # unsigned view
    if pred[0] == "s":  # signed view
        a, b = (x - (1 << width) if x >> (width - 1) else x for x in (a, b))
    return _ORDER[pred if pred in ("eq", "ne") else pred[1:]](a, b)


def _cmpf(pred: str, a: float, b: float) -> bool:
    if pred in ("false", "true"):
        return pred == "true"
    unordered = math.isnan(a) or math.isnan(b)
    if pred in ("ord", "uno"):
        return unordered == (pred == "uno")
    if unordered:
        return pred[0] == "u"
    return _ORDER[pred[1:]](a, b)


def constant_condition(v: Value) -> bool | None:
    """The value ``v`` (an ``i1``) always has, or ``None``."""
    c = getattr(v, "op", None)
    if c is None or v.type != T.IntegerType(1):
        return None
    if c.name == "arith.constant":
        x = getattr(c.attrs.get("value"), "value", None)
        return None if x is None else bool(x)
    if c.name not in ("arith.cmpi", "arith.cmpf") or len(c.operands) != 2:
        return None
    pred = getattr(c.attrs.get("predicate"), "value", None)
    a, b = (_constant(o) for o in c.operands)
    if not isinstance(pred, int) or a is None or b is None:
        return None
    if c.name == "arith.cmpi":
        width = _width(c.operands[0].type)
        return None if width is None or not 0 <= pred < len(_CMPI) else _cmpi(_CMPI[pred], a, b, width)
    return _cmpf(_CMPF[pred], a, b) if 0 <= pred < len(_CMPF) else None
