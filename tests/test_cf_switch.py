"""``cf.switch``: custom syntax, successor operands, analysis, bufferize and dealloc.

Expected values come from mlir-opt-22: its custom and generic printouts of our output, its
in-place decisions, and runs of its own pipelines. The dealloc backend lowers a switch to
a chain of ``cf.cond_br`` (backend/lower_switch.py) — before, it freed a buffer a
successor still used. mlir-opt-22 cannot bufferize tensors crossing a ``cf.switch``; the
reference for that program is the same program with the switch written as ``cf.cond_br``s.
"""

from __future__ import annotations

import re
import subprocess

import oracle
import pytest
from bufferlog.backend.bufferize import bufferize
from bufferlog.backend.dealloc import deallocate
from bufferlog.frontend.facts import Facts
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module
from test_analysis_parity import oracle as analysis_oracle
from test_analysis_parity import ours as analysis_ours

from bufferlog.core import UserError

needs_runner = pytest.mark.skipif(not oracle.available(run=True),
                                  reason="mlir-opt/mlir-runner missing")

SWITCH = """func.func @f(%flag: i32, %a: i32, %b: f32) -> i32 {
  cf.switch %flag : i32, [
    default: ^bb1(%a : i32),
    42: ^bb2(%b, %a : f32, i32),
    -3: ^bb3,
    4294967295: ^bb1(%a : i32)
  ]
^bb1(%x: i32):
  return %x : i32
^bb2(%y: f32, %z: i32):
  return %z : i32
^bb3:
  return %a : i32
}
func.func @only_default(%flag: i64) {
  scf.execute_region {
    cf.switch %flag : i64, [
      default: ^bb1
    ]
  ^bb1:
    scf.yield
  }
  return
}
"""

PICK = """func.func @pick(%flag: i32, %t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
SWITCH_HERE
^bb1(%x: tensor<4xf32>):
  %w = tensor.insert %v into %x[%c0] : tensor<4xf32>
  %r = tensor.extract %t[%c1] : tensor<4xf32>
  %w2 = tensor.insert %r into %w[%c1] : tensor<4xf32>
  return %w2 : tensor<4xf32>
^bb2:
  return %t : tensor<4xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %v = arith.constant 9.0 : f32
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i2 = arith.constant 2 : i32
  %a = call @pick(%i0, %k, %v) : (i32, tensor<4xf32>, f32) -> tensor<4xf32>
  %b = call @pick(%i1, %k, %v) : (i32, tensor<4xf32>, f32) -> tensor<4xf32>
  %c = call @pick(%i2, %k, %v) : (i32, tensor<4xf32>, f32) -> tensor<4xf32>
  %ua = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  %ub = tensor.cast %b : tensor<4xf32> to tensor<*xf32>
  %uc = tensor.cast %c : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%ua) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%ub) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%uc) : (tensor<*xf32>) -> ()
  return
}
"""
TENSORS = PICK.replace("SWITCH_HERE", """  cf.switch %flag : i32, [
    default: ^bb1(%t : tensor<4xf32>),
    1: ^bb1(%f : tensor<4xf32>),
    2: ^bb2
  ]""")
TENSORS_AS_COND_BR = PICK.replace("SWITCH_HERE", """  %k1 = arith.constant 1 : i32
  %is1 = arith.cmpi eq, %flag, %k1 : i32
  cf.cond_br %is1, ^bb1(%f : tensor<4xf32>), ^bb3
^bb3:
  %k2 = arith.constant 2 : i32
  %is2 = arith.cmpi eq, %flag, %k2 : i32
  cf.cond_br %is2, ^bb2, ^bb1(%t : tensor<4xf32>)""")

F_HEAD = """func.func @f(%flag: i32, %v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4xf32>
  memref.store %v, %m[%c0] : memref<4xf32>
"""
F_TAIL = """^bb1(%b: memref<4xf32>):
  %x = memref.load %b[%c0] : memref<4xf32>
  return %x : f32
^bb2:
  return %v : f32
}
func.func private @printF32(f32)
func.func private @printNewline()
func.func @main() {
  %v = arith.constant 2.5 : f32
  %zero = arith.constant 0 : i32
  %five = arith.constant 5 : i32
  %m1 = arith.constant -1 : i32
  %a = call @f(%zero, %v) : (i32, f32) -> f32
  %b = call @f(%five, %v) : (i32, f32) -> f32
  %c = call @f(%m1, %v) : (i32, f32) -> f32
  %s1 = arith.addf %a, %b : f32
  %s = arith.addf %s1, %c : f32
  call @printF32(%s) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}
"""
MEMREFS = F_HEAD + """  cf.switch %flag : i32, [
    default: ^bb1(%m : memref<4xf32>),
    5: ^bb2,
    -1: ^bb1(%m : memref<4xf32>)
  ]
""" + F_TAIL
MEMREFS_AS_COND_BR = F_HEAD + """  %k5 = arith.constant 5 : i32
  %is5 = arith.cmpi eq, %flag, %k5 : i32
  cf.cond_br %is5, ^bb2, ^bb3
^bb3:
  cf.br ^bb1(%m : memref<4xf32>)
""" + F_TAIL


def _opt(mlir_opt: str, text: str, *flags: str) -> str:
    p = subprocess.run([mlir_opt, *flags], input=text, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize("generic", [False, True])
def test_round_trip_under_mlir_opt(mlir_opt, generic):
    flags = ["--mlir-print-op-generic"] if generic else []
    ours = print_module(parse(SWITCH, "s.mlir"), generic=generic)
    assert _opt(mlir_opt, ours, *flags) == _opt(mlir_opt, SWITCH, *flags)


def test_successor_operands_follow_mlir_opt_segments(mlir_opt):
    """The operands we forward to each successor are the ones mlir-opt's generic form
    assigns to it (operandSegmentSizes + case_operand_segments)."""
    generic = _opt(mlir_opt, SWITCH, "--mlir-print-op-generic")
    line = next(ln for ln in generic.splitlines() if '"cf.switch"' in ln and "42" in ln)
    segs = [int(x) for x in re.search(r"case_operand_segments = array<i32: ([\d, ]+)>", line)
            .group(1).split(",")]
    seg = [int(x) for x in re.search(r"operandSegmentSizes = array<i32: ([\d, ]+)>", line)
           .group(1).split(",")]
    op = next(o for o in parse(SWITCH, "s.mlir").walk() if o.name == "cf.switch")
    assert len(op.successor_operands(0)) == seg[1]
    assert [len(op.successor_operands(k + 1)) for k in range(len(segs))] == segs
    assert [v.name for v in op.successor_operands(1)] == ["b", "a"]
    facts = Facts(parse(SWITCH, "s.mlir"))
    rows = {(i, k, j) for o, i, k, j in facts.rows["successor_operand"]
            if facts.ops[o].name == "cf.switch" and facts.ops[o].successors[0].args}
    assert rows == {(0, 1, 0), (1, 2, 0), (1, 3, 1), (3, 4, 0)}


def test_analysis_parity_with_tensors_through_a_switch(mlir_opt):
    assert analysis_ours(TENSORS) == analysis_oracle(TENSORS)


@needs_runner
def test_dealloc_runs_like_mlir_opt():
    ours = print_module(_dealloc(MEMREFS))
    assert "cf.switch" not in ours and ours.count("cf.cond_br") == 2
    got = oracle.run_program(ours)
    # mlir-opt-22's dealloc pipeline rejects cf.switch; the reference is the cond_br form
    ref = oracle.run_program(oracle.reference_deallocate(MEMREFS_AS_COND_BR))
    assert got.stdout == ref.stdout and got.stdout.strip() == "7.5"
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
def test_bufferize_runs_like_the_cond_br_version(strategy):
    ours = print_module(bufferize(parse(TENSORS, "t.mlir"), strategy))
    got = oracle.run_program(ours)
    ref = oracle.run_reference(TENSORS_AS_COND_BR)
    assert oracle.print_data(got.stdout) == oracle.print_data(ref.stdout)
    assert oracle.print_data(got.stdout).count("[9,  2,  9,  9]") == 1  # the case-1 fill
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)


def test_unknown_branch_op_is_refused_by_dealloc():
    text = ('func.func @f(%m: memref<4xf32>) {\n  "my.br"(%m)[^bb1] : (memref<4xf32>) -> ()\n'
            "^bb1:\n  return\n}\n")
    with pytest.raises(UserError, match=r"dealloc: branch op 'my\.br' is not supported") as e:
        _dealloc(text)
    assert (e.value.loc.line, e.value.loc.col) == (2, 3)


def _dealloc(text: str):
    m = parse(text, "m.mlir")
    deallocate(m)
    return m


def test_bad_switch_flag_is_located():
    bad = SWITCH.replace("cf.switch %flag : i32", "cf.switch %flag : f32", 1)
    with pytest.raises(UserError) as e:
        parse(bad, "b.mlir")
    assert e.value.loc.line == 2
