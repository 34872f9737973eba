"""Bufferizing a user's own op from ``sem_*`` facts alone (``--rules DIR``, no Python).

``my.scale`` doubles its operand's elements and returns the result as a new tensor
(declared: reads operand 0, writes it, result 0 equivalent to operand 0). bufferlog turns
it into a destination-style op on buffers. To run the output, the unregistered op is then
replaced by a call to a memref function that doubles its argument in place; the reference
is the same program with ``my.scale`` replaced by a tensor function, through mlir-opt's
own pipeline. Same printed output, no leak, no double free: the in-place decisions the
rules made for the user op are right.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import oracle
import pytest
from bufferlog.backend.bufferize import bufferize
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module

from bufferlog.core import UserError

needs_runner = pytest.mark.skipif(not oracle.available(run=True),
                                  reason="mlir-opt/mlir-runner missing")

SCALE_RULES = """sem_known("my.scale").
sem_read("my.scale", 0).
sem_write("my.scale", 0).
sem_alias("my.scale", 0, 0, "equivalent").
"""

DOUBLE = """linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]} outs(%X : TYPE) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  }"""

TENSOR_SCALE = ("func.func @scale_t(%X: tensor<4xf32>) -> tensor<4xf32> {\n  %r = "
                + DOUBLE.replace("TYPE", "tensor<4xf32>") + " -> tensor<4xf32>\n"
                "  return %r : tensor<4xf32>\n}\n")
MEMREF_SCALE = ("func.func @scale_m(%X: memref<4xf32>) {\n  "
                + DOUBLE.replace("TYPE", "memref<4xf32>") + "\n  return\n}\n")

HEAD = """func.func private @printMemrefF32(tensor<*xf32>)
func.func @print(%t: tensor<4xf32>) {
  %u = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
"""

# (name, body of @main, whether the analysis must copy for my.scale)
PROGRAMS = [
    # %t is read after my.scale wrote (in place) into it: a copy is needed
    ("read_after", """
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %a = "my.scale"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "my.scale"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %t[%c0] : tensor<4xf32>
  %y = tensor.insert %x into %b[%c0] : tensor<4xf32>
  call @print(%y) : (tensor<4xf32>) -> ()
  call @print(%t) : (tensor<4xf32>) -> ()
""", True),
    # nothing reads %t afterwards: both scales run in place, no copy
    ("chain_in_place", """
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.fill ins(%two : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %a = "my.scale"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "my.scale"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %z = tensor.insert %two into %b[%c1] : tensor<4xf32>
  call @print(%z) : (tensor<4xf32>) -> ()
""", False),
    # a constant is not writable: my.scale on it must work on a copy
    ("constant", """
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %a = "my.scale"(%k) : (tensor<4xf32>) -> tensor<4xf32>
  call @print(%a) : (tensor<4xf32>) -> ()
  call @print(%k) : (tensor<4xf32>) -> ()
""", True),
]


@pytest.fixture
def rules(tmp_path) -> Path:
    d = tmp_path / "myrules"
    d.mkdir()
    (d / "my_ops.dl").write_text(SCALE_RULES)
    return d


def program(body: str) -> str:
    return HEAD + "func.func @main() {" + body + "  return\n}\n"


def ours(text: str, rules: Path, strategy: str) -> str:
    return print_module(bufferize(parse(text, "user_op.mlir"), strategy, rules_dir=str(rules)))


@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("name,body,copies", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_user_op_output_is_accepted_and_copies_only_when_needed(name, body, copies, strategy,
                                                                rules, mlir_opt):
    out = ours(program(body), rules, strategy)
    assert not re.search(r"tensor<", out.split("func.func @main")[1])
    assert re.search(r'"my\.scale"\(%\w+\) : \(memref<4xf32>\) -> \(\)', out), out
    assert ("memref.copy" in out.split("func.func @main")[1]) == copies, out
    oracle.mlir_opt(out, "--allow-unregistered-dialect")


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("name,body,copies", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_user_op_runs_like_the_reference(name, body, copies, strategy, rules):
    text = program(body)
    ref_text = TENSOR_SCALE + re.sub(
        r'"my\.scale"\((%\w+)\) : \(tensor<4xf32>\) -> tensor<4xf32>',
        r"call @scale_t(\1) : (tensor<4xf32>) -> tensor<4xf32>", text)
    ref = oracle.run_reference(ref_text)
    out = MEMREF_SCALE + re.sub(r'"my\.scale"\((%\w+)\) : \(memref<4xf32>\) -> \(\)',
                                r"call @scale_m(\1) : (memref<4xf32>) -> ()",
                                ours(text, rules, strategy))
    got = oracle.run_program(out)
    assert ref.returncode == 0 and got.returncode == 0, got.stderr
    assert oracle.print_data(got.stdout) == oracle.print_data(ref.stdout)
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0), got.stderr


def test_result_without_equivalent_operand_is_a_located_error(tmp_path):
    d = tmp_path / "r"
    d.mkdir()
    (d / "my.dl").write_text('sem_known("my.make").\nsem_read("my.make", 0).\n')
    text = ("func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {\n"
            '  %0 = "my.make"(%t) : (tensor<4xf32>) -> tensor<4xf32>\n'
            "  return %0 : tensor<4xf32>\n}\n")
    with pytest.raises(UserError, match=r"result #0 of 'my\.make' is equivalent to no operand") as e:
        bufferize(parse(text, "m.mlir"), rules_dir=str(d))
    assert e.value.loc is not None and e.value.loc.line == 2


def test_cli_without_the_rules_refuses_the_op(tmp_path):
    f = tmp_path / "u.mlir"
    f.write_text(program(PROGRAMS[1][1]))
    p = subprocess.run([sys.executable, "-m", "bufferlog.cli", "bufferize", str(f)],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert re.match(rf"{re.escape(str(f))}:\d+:\d+: error: 'my\.scale' op was not bufferized",
                    p.stderr), p.stderr
