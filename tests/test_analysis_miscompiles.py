"""The three One-Shot miscompiles of mlir-opt 22 (DESIGN.md §5, tests/gen_programs.py
``known_miscompile_programs``): bufferlog's oneshot decisions differ from mlir-opt's
exactly at the operand that must bufferize out of place, and (when mlir-runner is
available) the program bufferized by bufferlog prints what the copy-before-write
semantic reference prints. README.md "In-place analysis" lists the differences."""

from __future__ import annotations

import pytest
from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.frontend.parser import parse

try:
    from tests import gen_programs
    from tests import oracle as tools
except ImportError:  # tests/ on sys.path (rootdir-relative imports)
    import gen_programs
    import oracle as tools

PROGRAMS = gen_programs.known_miscompile_programs()

#: name -> (position of the op among annotated ops, op name, operand) that bufferlog puts
#: out of place where mlir-opt keeps it in place.
MUST_COPY = {
    # fill into %r#0 while %r#1 (the same returned buffer) is still read
    "return_twice": (2, "linalg.fill", 1),
    # tensor.insert into %t, which holds the yielded constant from iteration 2 on
    "yield_constant": (3, "tensor.insert", 1),
    # fill into %a while %b (fed by the same yielded value) is still read
    "yield_twice": (3, "linalg.fill", 1),
}


def decisions(text: str) -> list[tuple[str, list[str]]]:
    _, an, dec = analyze_module(parse(text, "<known>"), engine="embedded")
    return [(an.name[o], v) for o, v in operand_annotations(an, dec).items()]


def diff_positions(ours, theirs) -> list[tuple[int, str, int]]:
    assert [n for n, _ in ours] == [n for n, _ in theirs]
    return [(k, n, i) for k, ((n, a), (_, b)) in enumerate(zip(ours, theirs, strict=True))
            for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_must_copy_operand_is_out_of_place(name):
    k, op, i = MUST_COPY[name]
    got = decisions(PROGRAMS[name])
    assert got[k][0] == op and got[k][1][i] == "false"


@pytest.mark.oracle
@pytest.mark.skipif(not tools.available(run=False), reason="mlir-opt-22 missing")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_differs_from_mlir_exactly_at_must_copy(name):
    text = PROGRAMS[name]
    theirs = tools.inplace_decisions(tools.reference_analysis(text))
    assert diff_positions(decisions(text), theirs) == [MUST_COPY[name]]
    k, _, i = MUST_COPY[name]
    assert theirs[k][1][i] == "true"  # mlir-opt keeps it in place: the miscompile


@pytest.mark.oracle
@pytest.mark.skipif(not tools.available(), reason="mlir-opt-22/mlir-runner-22 missing")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_bufferized_program_prints_semantic_reference(name):
    from bufferlog.backend.bufferize import bufferize
    from bufferlog.frontend.printer import print_module

    text = PROGRAMS[name]
    got = tools.run_program(print_module(bufferize(parse(text, name))), count=True)
    sem = tools.run_semantic(text)
    assert got.returncode == 0 and got.clean, got.stderr[-2000:]
    assert got.data == sem.data == gen_programs.KNOWN_MISCOMPILE_EXPECTED[name]


T = "tensor<4xf32>"
VARIANTS = {
    # the loop yields a view (tensor.cast) of a constant
    "yield_constant_view": (f"""func.func @f(%init: {T}, %f: f32) -> {T} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %init) -> ({T}) {{
    %w = tensor.insert %f into %t[%c0] : {T}
    %k = arith.constant dense<1.0> : tensor<4xf32>
    %v = tensor.cast %k : tensor<4xf32> to {T}
    scf.yield %v : {T}
  }}
  return %r : {T}
}}""", "tensor.insert"),
    # scf.while: the "after" region yields one value to both "before" arguments
    "while_yield_twice": (f"""func.func @f(%x: {T}, %y: {T}, %n: index, %f: f32) -> ({T}, f32) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:3 = scf.while (%a = %x, %b = %y, %k = %c0) : ({T}, {T}, index) -> ({T}, {T}, index) {{
    %a2 = tensor.insert %f into %a[%c0] : {T}
    %e = tensor.extract %b[%c0] : {T}
    %p = arith.cmpi slt, %k, %n : index
    scf.condition(%p) %a2, %b, %k : {T}, {T}, index
  }} do {{
  ^bb0(%a3: {T}, %b3: {T}, %k3: index):
    %k4 = arith.addi %k3, %c1 : index
    scf.yield %a3, %a3, %k4 : {T}, {T}, index
  }}
  %e = tensor.extract %r#1[%c0] : {T}
  return %r#0, %e : {T}, f32
}}""", "tensor.insert"),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variants_copy_the_write(name):
    text, op = VARIANTS[name]
    got = dict(decisions(text))
    assert got[op][1] == "false"
