"""``cf.switch``: custom syntax, successor operands, analysis, and the backends' refusal.

Expected values come from mlir-opt-22: its custom and generic printouts of our output,
and its in-place decisions. The dealloc backend does not model cf.switch edges, so it
must refuse them with a located error instead of freeing a buffer a successor still uses
(what it silently did before).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from bufferlog.backend.dealloc import deallocate
from bufferlog.frontend.facts import Facts
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module
from test_analysis_parity import oracle as analysis_oracle
from test_analysis_parity import ours as analysis_ours

from bufferlog.errors import UserError

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

TENSORS = """func.func @pick(%flag: i32, %t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  cf.switch %flag : i32, [
    default: ^bb1(%t : tensor<4xf32>),
    1: ^bb1(%f : tensor<4xf32>),
    2: ^bb2
  ]
^bb1(%x: tensor<4xf32>):
  %w = tensor.insert %v into %x[%c0] : tensor<4xf32>
  %r = tensor.extract %t[%c1] : tensor<4xf32>
  %w2 = tensor.insert %r into %w[%c1] : tensor<4xf32>
  return %w2 : tensor<4xf32>
^bb2:
  return %t : tensor<4xf32>
}
"""

MEMREFS = """func.func @f(%flag: i32, %v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<4xf32>
  memref.store %v, %m[%c0] : memref<4xf32>
  cf.switch %flag : i32, [
    default: ^bb1,
    1: ^bb2
  ]
^bb1:
  %x = memref.load %m[%c0] : memref<4xf32>
  return %x : f32
^bb2:
  return %v : f32
}
"""


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


def test_backends_refuse_the_switch_with_a_location():
    with pytest.raises(UserError, match=r"dealloc: branch op 'cf\.switch' is not supported") as e:
        deallocate(parse(MEMREFS, "m.mlir"))
    assert (e.value.loc.line, e.value.loc.col) == (5, 3)
    p = subprocess.run([sys.executable, "-m", "bufferlog.cli", "bufferize", "-"], input=TENSORS,
                       capture_output=True, text=True)
    assert p.returncode == 1 and re.match(r"\S+:6:3: error: bufferize: ", p.stderr), p.stderr


def test_bad_switch_flag_is_located():
    bad = SWITCH.replace("cf.switch %flag : i32", "cf.switch %flag : f32", 1)
    with pytest.raises(UserError) as e:
        parse(bad, "b.mlir")
    assert e.value.loc.line == 2
