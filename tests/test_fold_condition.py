"""backend/ops/arith.py (constant_condition): the constant value of an i1 condition made by comparing two
constants must be the value mlir-opt-22's canonicalizer folds it to (checked per
predicate, with signed/unsigned integers, index, f32 rounding and NaN)."""

from __future__ import annotations

import pytest

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

from bufferlog.backend.ops.arith import constant_condition
from bufferlog.frontend.parser import parse

CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
        "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]
#: (type, a, b): pairs where signed and unsigned orders differ, equal values, values
#: equal only after rounding to f32, and NaN
INTS = [("i8", "-1", "1"), ("i8", "5", "5"), ("index", "-3", "2"), ("i32", "7", "-7")]
FLOATS = [("f32", "1.5", "-2.0"), ("f32", "1.00000001", "1.0"), ("f64", "1.00000001", "1.0"),
          ("f32", "0x7FC00000", "1.0")]


def _program() -> tuple[str, list[str]]:
    lines, names = [], []
    cases = [("cmpi", p, c) for p in CMPI for c in INTS] + [("cmpf", p, c) for p in CMPF for c in FLOATS]
    for n, (op, pred, (t, a, b)) in enumerate(cases):
        lines += [f"  %a{n} = arith.constant {a} : {t}", f"  %b{n} = arith.constant {b} : {t}",
                  f"  %r{n} = arith.{op} {pred}, %a{n}, %b{n} : {t}"]
        names.append(f"%r{n}")
    types = ", ".join("i1" for _ in names)
    text = "\n".join([f"func.func @f() -> ({types}) {{", *lines,
                      f"  return {', '.join(names)} : {types}", "}", ""])
    return text, names


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22 missing")
def test_comparisons_of_constants_fold_as_mlir_opt_folds_them():
    text, names = _program()
    ours = [constant_condition(v) for v in parse(text, "<cmp>").body.ops[0].regions[0].entry.ops[-1].operands]
    folded = oracle.mlir_opt(text, "--canonicalize")
    # the canonicalized function returns only `true` / `false` constants
    consts = dict(line.split(" = arith.constant ") for line in
                  (ln.strip() for ln in folded.splitlines()) if "arith.constant" in line)
    ret = next(ln.strip() for ln in folded.splitlines() if ln.strip().startswith("return "))
    theirs = [consts[v.strip()].split(" ")[0] == "true" for v in ret[len("return "):].split(":")[0].split(",")]
    assert len(theirs) == len(names)
    mismatches = [(k, ours[k], theirs[k]) for k in range(len(names)) if ours[k] != theirs[k]]
    assert not mismatches, mismatches
    assert None not in ours
