"""arith, math and cf custom assembly.

Representation (MLIR property names): arith.constant ``value``; cmpi/cmpf ``predicate``
(IntegerAttr i64 of the predicate enum); ``fastmath`` = ``#arith.fastmath<..>`` and
``overflowFlags`` = ``#arith.overflow<..>`` as OpaqueAttr; cf.cond_br
``operandSegmentSizes`` = array<i32: 1, n_true, n_false>; cf.assert ``msg``.
"""

from __future__ import annotations

from ..attrs import (
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
)
from ..ir import Op
from ..types import (
    IntegerType,
    TensorType,
    UnrankedTensorType,
    VectorType,
)
from . import builds, prints

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

I1 = IntegerType(1)
I64 = IntegerType(64)

CMPI_PREDS = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF_PREDS = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge",
              "ult", "ule", "une", "uno", "true"]
_BOOL_RESULT_MATH = {"math.isnan", "math.isinf", "math.isfinite", "math.isnormal"}


def _i1_like(t: Any) -> Any:
    """i1 with the shape of ``t`` (what comparisons return)."""
    if isinstance(t, TensorType):
        return TensorType(t.shape, I1, t.encoding)
    if isinstance(t, UnrankedTensorType):
        return UnrankedTensorType(I1)
    if isinstance(t, VectorType):
        return VectorType(t.shape, I1, t.scalable)
    return I1


def _name(tree: Any) -> str:
    return str(tree.children[0])


def _flags(ctx: Any, node: Any, attrs: dict[str, Any]) -> None:
    if node is None:
        return
    names = ",".join(ctx.str(c) for c in node.children)
    if node.data == "fastmath_flags":
        attrs["fastmath"] = OpaqueAttr(f"#arith.fastmath<{names}>")
    else:
        attrs["overflowFlags"] = OpaqueAttr(f"#arith.overflow<{names}>")


def _print_flags(op: Op) -> str:
    s = ""
    for key, kw in (("fastmath", "fastmath"), ("overflowFlags", "overflow")):
        a = op.attrs.get(key)
        if isinstance(a, OpaqueAttr) and "<" in a.text:
            inner = a.text[a.text.index("<") + 1:-1]
            if inner.strip() != "none":
                s += f" {kw}<{inner}>"
    return s


_FLAG_KEYS = ("fastmath", "overflowFlags")


# -- arith.constant ----------------------------------------------------------------------

@builds("arith_constant")
def build_constant(ctx: Any, tree: Any) -> Op:
    node = tree.children[0]
    val = ctx.attr(node)
    if isinstance(val, BoolAttr):
        ty = I1
    else:
        ty = getattr(val, "type", None)
    if ty is None:
        if isinstance(val, IntegerAttr):
            val, ty = IntegerAttr(val.value, I64), I64
        else:
            ctx.error(node, "arith.constant needs a typed attribute (e.g. `0 : i32`)")
    return Op("arith.constant", (), [ty], {"value": val})


def constant_literal(val: Any) -> str:
    """The custom-syntax spelling of an arith.constant value."""
    if isinstance(val, BoolAttr):
        return str(val)
    if isinstance(val, IntegerAttr) and val.type == I1:
        return "true" if val.value else "false"
    return str(val)


@prints("arith.constant")
def print_constant(p: Any, op: Op) -> str:
    val = op.attrs.get("value")
    ok = isinstance(val, BoolAttr | IntegerAttr | FloatAttr | DenseElementsAttr |
                    DenseResourceAttr) and (len(op.attrs) == 1 or getattr(p, "mlir_opt", False))
    if not ok:
        return p.generic_op(op)
    lit = constant_literal(val)
    if getattr(p, "mlir_opt", False):  # mlir-opt's form: other attributes before the value
        lit = f"{p.attr_dict(op, elide=('value',)).lstrip()} {p.attr(val) if lit == str(val) else lit}"
    return f"arith.constant {lit.strip()}"


# -- binary / unary ----------------------------------------------------------------------

@builds("arith_binary")
def build_binary(ctx: Any, tree: Any) -> Op:
    name, a, b, flags, ad, ty = tree.children
    t = ctx.type(ty)
    attrs: dict[str, Any] = {}
    _flags(ctx, flags, attrs)
    attrs.update(ctx.attr_dict(ad))
    return Op(_name(name), [ctx.use(a, t), ctx.use(b, t)], [t], attrs)


@builds("arith_unary")
def build_unary(ctx: Any, tree: Any) -> Op:
    a, flags, ad, ty = tree.children
    t = ctx.type(ty)
    attrs: dict[str, Any] = {}
    _flags(ctx, flags, attrs)
    attrs.update(ctx.attr_dict(ad))
    return Op("arith.negf", [ctx.use(a, t)], [t], attrs)


def _print_same_type(p: Any, op: Op) -> str:
    if len(op.results) != 1:
        return p.generic_op(op)
    return (f"{op.name} {p.values(op.operands)}{_print_flags(op)}"
            f"{p.attr_dict(op, elide=_FLAG_KEYS)} : {p.type(op.results[0].type)}")


_BINARY = ["addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf",
           "minnumf", "addi", "subi", "muli", "shli", "divsi", "divui", "ceildivsi",
           "ceildivui", "floordivsi", "remsi", "remui", "andi", "ori", "xori", "shrsi",
           "shrui", "maxsi", "maxui", "minsi", "minui", "mulhisi", "mulhiui", "negf"]
for _n in _BINARY:
    prints(f"arith.{_n}")(_print_same_type)


# -- comparisons, select, casts ---------------------------------------------------------

@builds("arith_cmp")
def build_cmp(ctx: Any, tree: Any) -> Op:
    name, pred, a, b, flags, ad, ty = tree.children
    opname = _name(name)
    preds = CMPI_PREDS if opname == "arith.cmpi" else CMPF_PREDS
    pname = ctx.str(pred)
    if pname not in preds:
        ctx.error(pred, f"unknown {opname} predicate '{pname}'")
    t = ctx.type(ty)
    attrs: dict[str, Any] = {"predicate": IntegerAttr(preds.index(pname), I64)}
    _flags(ctx, flags, attrs)
    attrs.update(ctx.attr_dict(ad))
    return Op(opname, [ctx.use(a, t), ctx.use(b, t)], [_i1_like(t)], attrs)


def _print_cmp(p: Any, op: Op) -> str:
    preds = CMPI_PREDS if op.name == "arith.cmpi" else CMPF_PREDS
    pa = op.attrs.get("predicate")
    if not isinstance(pa, IntegerAttr) or not 0 <= pa.value < len(preds):
        return p.generic_op(op)
    return (f"{op.name} {preds[pa.value]}, {p.values(op.operands)}{_print_flags(op)}"
            f"{p.attr_dict(op, elide=('predicate', *_FLAG_KEYS))} : "
            f"{p.type(op.operands[0].type)}")


prints("arith.cmpi")(_print_cmp)
prints("arith.cmpf")(_print_cmp)


@builds("arith_select")
def build_select(ctx: Any, tree: Any) -> Op:
    c, a, b, ad, t1, t2 = tree.children
    if t2 is None:
        ct, t = I1, ctx.type(t1)
    else:
        ct, t = ctx.type(t1), ctx.type(t2)
    return Op("arith.select", [ctx.use(c, ct), ctx.use(a, t), ctx.use(b, t)], [t],
              ctx.attr_dict(ad))


@prints("arith.select")
def print_select(p: Any, op: Op) -> str:
    c = op.operands[0]
    ty = p.type(op.results[0].type)
    if c.type != I1:
        ty = f"{p.type(c.type)}, {ty}"
    return f"arith.select {p.values(op.operands)}{p.attr_dict(op)} : {ty}"


@builds("arith_cast")
def build_cast(ctx: Any, tree: Any) -> Op:
    name, a, flags, ad, t_in, t_out = tree.children
    attrs: dict[str, Any] = {}
    _flags(ctx, flags, attrs)
    attrs.update(ctx.attr_dict(ad))
    return Op(_name(name), [ctx.use(a, ctx.type(t_in))], [ctx.type(t_out)], attrs)


def _print_cast(p: Any, op: Op) -> str:
    return (f"{op.name} {p.value(op.operands[0])}{_print_flags(op)}"
            f"{p.attr_dict(op, elide=_FLAG_KEYS)} : {p.type(op.operands[0].type)} to "
            f"{p.type(op.results[0].type)}")


for _n in ["extf", "truncf", "extsi", "extui", "trunci", "sitofp", "uitofp", "fptosi",
           "fptoui", "index_cast", "index_castui", "bitcast"]:
    prints(f"arith.{_n}")(_print_cast)


# -- math --------------------------------------------------------------------------------

@builds("math_op")
def build_math(ctx: Any, tree: Any) -> Op:
    name, vals, flags, ad, tys = tree.children
    opname = _name(name)
    types = ctx.types(tys)
    operands = ctx.uses(vals)
    if opname == "math.fpowi" and len(types) == 2:
        in_types = types
    elif len(types) == 1:
        in_types = types * len(operands)
    else:
        ctx.error(tys, f"'{opname}' expects one type")
    if len(in_types) != len(operands):
        ctx.error(vals, f"'{opname}' operand/type count mismatch")
    for v, t in zip(operands, in_types, strict=True):
        if v.type is None:
            v.type = t
    attrs: dict[str, Any] = {}
    _flags(ctx, flags, attrs)
    attrs.update(ctx.attr_dict(ad))
    rt = _i1_like(types[0]) if opname in _BOOL_RESULT_MATH else types[0]
    return Op(opname, operands, [rt], attrs)


def _print_math(p: Any, op: Op) -> str:
    ty = p.type(op.operands[0].type)
    if op.name == "math.fpowi":
        ty += ", " + p.type(op.operands[1].type)
    return (f"{op.name} {p.values(op.operands)}{_print_flags(op)}"
            f"{p.attr_dict(op, elide=_FLAG_KEYS)} : {ty}")


for _n in ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "tanh", "tan", "sin",
           "cos", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "sqrt",
           "rsqrt", "cbrt", "erf", "erfc", "absf", "absi", "ceil", "floor", "round",
           "roundeven", "trunc", "copysign", "atan2", "powf", "ipowi", "fpowi", "fma",
           "ctlz", "cttz", "ctpop", "isnan", "isinf", "isfinite", "isnormal"]:
    prints(f"math.{_n}")(_print_math)


# -- cf ----------------------------------------------------------------------------------

@builds("cf_br")
def build_br(ctx: Any, tree: Any) -> Op:
    succ, ad = tree.children
    blk, args = ctx.successor(succ)
    return Op("cf.br", args, (), ctx.attr_dict(ad), successors=[blk])


@prints("cf.br")
def print_br(p: Any, op: Op) -> str:
    return f"cf.br {p.successor(op.successors[0], op.operands)}{p.attr_dict(op)}"


@builds("cf_cond_br")
def build_cond_br(ctx: Any, tree: Any) -> Op:
    c, s1, s2, ad = tree.children
    b1, a1 = ctx.successor(s1)
    b2, a2 = ctx.successor(s2)
    attrs: dict[str, Any] = {
        "operandSegmentSizes": DenseArrayAttr("i32", (1, len(a1), len(a2)))}
    attrs.update(ctx.attr_dict(ad))
    return Op("cf.cond_br", [ctx.use(c, I1), *a1, *a2], (), attrs, successors=[b1, b2])


@prints("cf.cond_br")
def print_cond_br(p: Any, op: Op) -> str:
    if "operandSegmentSizes" not in op.attrs or len(op.successors) != 2:
        return p.generic_op(op)
    extra = p.attr_dict(op, elide=("operandSegmentSizes",))
    return (f"cf.cond_br {p.value(op.operands[0])}, "
            f"{p.successor(op.successors[0], op.successor_operands(0))}, "
            f"{p.successor(op.successors[1], op.successor_operands(1))}{extra}")


@builds("cf_switch")
def build_switch(ctx: Any, tree: Any) -> Op:
    flag, ftype, default, *rest = tree.children
    ad = rest.pop() if rest and (rest[-1] is None or rest[-1].data != "cf_case") else None
    t = ctx.type(ftype)
    if not isinstance(t, IntegerType):
        ctx.error(ftype, f"cf.switch flag must be an integer, got '{t}'")
    succ = [ctx.successor(default)]
    values = []
    for case in rest:
        val, s = case.children
        values.append(_wrap(ctx.int(val), t.width))
        succ.append(ctx.successor(s))
    attrs: dict[str, Any] = {
        "case_operand_segments": DenseArrayAttr("i32", tuple(len(a) for _, a in succ[1:])),
        "operandSegmentSizes": DenseArrayAttr(
            "i32", (1, len(succ[0][1]), sum(len(a) for _, a in succ[1:])))}
    if values:
        attrs["case_values"] = DenseElementsAttr(
            "[" + ", ".join(map(str, values)) + "]", VectorType((len(values),), t))
    attrs.update(ctx.attr_dict(ad))
    operands = [ctx.use(flag, t)] + [v for _, a in succ for v in a]
    return Op("cf.switch", operands, (), attrs, successors=[b for b, _ in succ])


def _wrap(v: int, width: int) -> int:
    """An integer literal as the signed value of an iN (MLIR prints 2^32-3 for i32 -3)."""
    if width <= 1:
        return v & 1
    v &= (1 << width) - 1
    return v - (1 << width) if v >= 1 << (width - 1) else v


def switch_case_values(op: Op) -> list[int]:
    """The case values of a ``cf.switch``, in successor order (successor k + 1)."""
    cv = op.attrs.get("case_values")
    if cv is None:
        return []
    return [int(x) for x in cv.text.strip("[] ").split(",") if x.strip()]


@prints("cf.switch")
def print_switch(p: Any, op: Op) -> str:
    cases = op.attrs.get("case_values")
    values = switch_case_values(op)
    if ("case_operand_segments" not in op.attrs or len(values) != len(op.successors) - 1
            or (values and cases.is_splat())):
        return p.generic_op(op)
    lines = [f"default: {p.successor(op.successors[0], op.successor_operands(0))}"]
    lines += [f"{v}: {p.successor(op.successors[k + 1], op.successor_operands(k + 1))}"
              for k, v in enumerate(values)]
    extra = p.attr_dict(op, elide=("case_operand_segments", "case_values", "operandSegmentSizes"))
    pad = "  " * p.indent  # the op's own indentation (its first line is indented by the caller)
    return (f"cf.switch {p.value(op.operands[0])} : {p.type(op.operands[0].type)}, [\n"
            + ",\n".join(pad + "  " + x for x in lines) + "\n" + pad + "]" + extra)


@builds("cf_assert")
def build_assert(ctx: Any, tree: Any) -> Op:
    c, msg, ad = tree.children
    attrs: dict[str, Any] = {"msg": StringAttr(ctx.str(msg))}
    attrs.update(ctx.attr_dict(ad))
    return Op("cf.assert", [ctx.use(c, I1)], (), attrs)


@prints("cf.assert")
def print_assert(p: Any, op: Op) -> str:
    msg = op.attrs.get("msg")
    if not isinstance(msg, StringAttr):
        return p.generic_op(op)
    return f"cf.assert {p.value(op.operands[0])}, {msg}{p.attr_dict(op, elide=('msg',))}"

