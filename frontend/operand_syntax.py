"""How the input names an op's operand: ``outs(%e)``, ``ins(%a)``, ``into %t``, or the
plain ``%v`` — for explanations and for the causes printed on the ops a pass creates."""

from __future__ import annotations

from .dialects.linalg import is_structured, linalg_ins_outs
from .ir import Op

#: ops whose operand ``i`` is written ``<keyword> %v`` in custom syntax
KEYWORD_OPERAND = {
    ("tensor.insert", 1): "into",
    ("tensor.insert_slice", 1): "into",
    ("tensor.parallel_insert_slice", 1): "into",
    ("bufferization.materialize_in_destination", 1): "in",
}

#: ops whose tensor operands after the first ``n`` sit in a keyword group
GROUP_OPERANDS = {"scf.for": ("iter_args", 3), "scf.forall": ("shared_outs", None)}


def value_text(op: Op, i: int) -> str:
    name = op.operands[i].name
    return f"%{name}" if name else f"operand #{i}"


def operand_syntax(op: Op, i: int) -> str:
    """Operand ``i`` of ``op`` as the input writes it, e.g. ``outs(%e)``."""
    v = value_text(op, i)
    if is_structured(op):
        ins, _ = linalg_ins_outs(op)
        return f"ins({v})" if i < len(ins) else f"outs({v})"
    kw = KEYWORD_OPERAND.get((op.name, i))
    if kw is not None:
        return f"{kw} {v}"
    group = GROUP_OPERANDS.get(op.name)
    if group is not None:
        key, first = group
        if first is None:  # scf.forall: the shared_outs are the last operands
            first = len(op.operands) - len(op.results)
        if i >= first:
            return f"{key}({v})"
    return v
