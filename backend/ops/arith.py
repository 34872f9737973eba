"""arith (and index): constants, selects and integer arithmetic.

Analysis: a tensor ``arith.constant`` is a read-only buffer (``sem_result_readonly``);
``arith.select`` may alias either tensor operand; integer ops are the terms of the Z3
slice proofs (``sem_index_arith``). Deallocation: ``arith.select`` chooses between two
buffers by its i1 operand (``mem_choice``, ``mem_choice_when``). Rewrite: a dense tensor
constant becomes a private constant ``memref.global`` and its ``memref.get_global``; a
select of tensors, a select of their buffers; an ``arith.index_cast`` of a tensor, the
same cast of its buffer (a view: ``mem_view``). Also the builders of the integer and i1
ops the backend emits, and the folding of a constant condition
(:func:`constant_condition`, as mlir-opt's canonicalizer folds it).
"""

from __future__ import annotations

import math
import struct

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import (
    DenseElementsAttr,
    DenseResourceAttr,
    IntegerAttr,
    StringAttr,
    TypeAttr,
    UnitAttr,
)
from bufferlog.frontend.ir import Op, Value

from ..layouts import dynamic_layout, in_space, memref_of, space_of
from . import CONSTANT, mem, memref, op, sem

INDEX = T.IndexType()
I1 = T.IntegerType(1)
CONSTANT_OP = "arith.constant"
CMPI_EQ = IntegerAttr(0, T.IntegerType(64))  # arith.cmpi predicate enum: 0 = eq

op("arith.addi", sem.index_arith("+"))
op("arith.subi", sem.index_arith("-"))
op("arith.muli", sem.index_arith("*"))
op("index.add", sem.index_arith("+"))
op("index.sub", sem.index_arith("-"))
op("index.mul", sem.index_arith("*"))


@op(CONSTANT_OP, sem.known(), sem.result_readonly(""), traits=(CONSTANT,), exports=("const_int",))
def constant(bz, op: Op):
    """A dense tensor constant: one private constant ``memref.global`` per value and type
    (shared by equal constants), read through ``memref.get_global``."""
    val, t = op.attrs["value"], op.result.type
    if not isinstance(val, DenseElementsAttr | DenseResourceAttr) or not isinstance(t, T.TensorType):
        bz.fail(op, "bufferize: unsupported tensor constant")
    mt = memref_of(t)
    key = (str(val), str(t))
    name = bz.globals.get(key)
    if name is None:
        name = bz.globals[key] = f"__constant_{len(bz.globals)}"
        g = memref.global_({
            "sym_visibility": StringAttr("private"), "constant": UnitAttr(),
            "sym_name": StringAttr(name), "type": TypeAttr(mt), "initial_value": val,
            "alignment": IntegerAttr(64, T.IntegerType(64))})
        g.loc = op.loc
        g.made_in = bz.current
        bz.m.body.insert(len(bz.globals) - 1, g)
    bz.done(op, bz.put(memref.get_global(name, mt)).result)


@op("arith.select", sem.known(), sem.alias(1, 0, "unknown"), sem.alias(2, 0, "unknown"),
    mem.choice(1), mem.choice(2), mem.choice_when(0, 1, 1), mem.choice_when(0, 2, 0))
def select(bz, op: Op):
    """``arith.select`` of the two buffers (each a copy when the analysis put it out of
    place); buffers of different layouts are both cast to the fully dynamic one, as
    MLIR does."""
    if not isinstance(op.operands[0].type, T.IntegerType):
        bz.fail(op, "bufferize: arith.select with a tensor condition is not supported "
                    "(mlir-opt: only i1 condition values are supported)")
    a, b = bz.operand_buffer(op, 1), bz.operand_buffer(op, 2)
    if space_of(a.type) != space_of(b.type):  # mlir-opt's words and place
        bz.refuse(op, "inconsistent memory space on true/false operands")
    if a.type != b.type:
        t = op.result.type
        if isinstance(t, T.UnrankedTensorType):
            bz.fail(op, "bufferize: arith.select of unranked buffers of different types")
        t = in_space(T.MemRefType(t.shape, t.elem, dynamic_layout(t.rank)), a.type)
        a, b = bz.cast(a, t), bz.cast(b, t)
    bz.done(op, bz.emit(op.name, [op.operands[0], a, b], [a.type]).result)


@op("arith.index_cast", sem.known(), sem.alias(0, 0, "equivalent"), mem.view(0))
def index_cast(bz, op: Op):
    """An integer tensor's elements cast to ``index`` (or back): the same cast of its
    buffer, as mlir-opt's model makes it (no read, no write; the result is the operand's
    buffer with the other element type, same shape, layout and memory space)."""
    b, elem = bz.operand_buffer(op, 0), op.result.type.elem
    if isinstance(b.type, T.UnrankedMemRefType):
        nt = T.UnrankedMemRefType(elem, b.type.memspace)
    else:
        nt = T.MemRefType(b.type.shape, elem, b.type.layout, b.type.memspace)
    bz.done(op, bz.emit(op.name, [b], [nt]).result)


# -- builders -------------------------------------------------------------------------------

def constant_int(n: int, t) -> Op:
    """``arith.constant n : t`` (an integer or index type)."""
    return Op(CONSTANT_OP, (), [t], {"value": IntegerAttr(n, t)})


def constant_index(n: int) -> Op:
    return constant_int(n, INDEX)


def constant_bool(b: bool) -> Op:
    return constant_int(int(b), I1)


def addi(a: Value, b: Value) -> Op:
    return Op("arith.addi", [a, b], [a.type])


def ori(a: Value, b: Value) -> Op:
    return Op("arith.ori", [a, b], [I1])


def andi(a: Value, b: Value) -> Op:
    return Op("arith.andi", [a, b], [I1])


def xori(a: Value, b: Value) -> Op:
    return Op("arith.xori", [a, b], [I1])


def cmpi_eq(a: Value, b: Value) -> Op:
    return Op("arith.cmpi", [a, b], [I1], {"predicate": CMPI_EQ})


def cmpi_ult(a: Value, b: Value) -> Op:
    """``arith.cmpi ult``: ``a < b`` as unsigned integers (predicate enum 6)."""
    return Op("arith.cmpi", [a, b], [I1], {"predicate": IntegerAttr(6, T.IntegerType(64))})


# -- folding a constant condition -----------------------------------------------------------
# The constant value of an ``i1`` condition, as mlir-opt's canonicalizer folds it: an
# ``arith.constant``, or an ``arith.cmpi`` / ``arith.cmpf`` of two constants (integers and
# index; ``f32`` / ``f64`` floats, compared at their own precision, NaN unordered).

#: arith.cmpi predicates by their enum number (eq = 0, ..., uge = 9)
_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
#: arith.cmpf predicates by their enum number (false = 0, oeq, ..., uno, true = 15)
_CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
         "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")
_ORDER = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
          "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}


def _constant(v: Value) -> object | None:
    c = getattr(v, "op", None)
    if c is None or c.name != CONSTANT_OP or len(c.results) != 1:
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
    if c.name == CONSTANT_OP:
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
