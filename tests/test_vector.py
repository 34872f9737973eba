"""The vector dialect (issue 10): custom syntax of vector.transfer_read / transfer_write
(permutation maps, in_bounds, masks), vector.print and the common ops around them;
their facts on tensors (rules/ops.dl) and the in-place decisions against mlir-opt-22.

Programs: tests/vector/*.mlir (decisions equal mlir-opt's) and tests/vector_differs/,
where mlir-opt 22 counts a partial transfer_write as a covering one (a masked write; a
row written into a 2-d tensor) and miscompiles: bufferlog's decisions differ from
mlir-opt's exactly at the dead write before it, and its output prints the program's
values."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import gen_vector_programs
import oracle
import pytest
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module
from test_analysis_parity import oracle as analysis_oracle
from test_analysis_parity import ours as analysis_ours

from bufferlog.core import UserError

HERE = Path(__file__).resolve().parent
PROGRAMS = sorted((HERE / "vector").glob("*.mlir"))
DIFFERS = HERE / "vector_differs"
#: program -> (what bufferlog's output prints, what mlir-opt 22's pipeline prints)
DIFFER_PRINTS = {
    "masked_cover": ("[10,  2,  30,  4]", "[10,  7,  30,  7]"),
    "row_cover": ("[[10,   20,   30,   40], \n [5,   6,   7,   8]]",
                  "[[10,   20,   30,   40], \n [7,   7,   7,   7]]"),
}
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")

SYNTAX = """#perm = affine_map<(d0, d1) -> (d1, d0)>
#mm = {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @ops(%t: tensor<4x8xf32>, %m: memref<16xf32>, %mask: vector<4xi1>, %s: f32, %i: index, %n: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<4x8xf32>, vector<4x8xf32>
  %col = vector.transfer_read %t[%c0, %i], %pad, %mask {permutation_map = affine_map<(d0, d1) -> (d0)>} : tensor<4x8xf32>, vector<4xf32>
  %tr = vector.transfer_read %t[%c0, %c0], %pad {permutation_map = #perm, in_bounds = [true, false]} : tensor<4x8xf32>, vector<8x4xf32>
  %b = vector.broadcast %s : f32 to vector<4x8xf32>
  %b2 = vector.broadcast %col : vector<4xf32> to vector<8x4xf32>
  %k = arith.constant dense<1.5> : vector<4x8xf32>
  %sum = arith.addf %a, %b : vector<4x8xf32>
  %prod = arith.mulf %sum, %k : vector<4x8xf32>
  %e = vector.extract %prod[0, 3] : f32 from vector<4x8xf32>
  %row = vector.extract %prod[%i] : vector<8xf32> from vector<4x8xf32>
  %ins = vector.insert %e, %prod [1, 2] : f32 into vector<4x8xf32>
  %ins2 = vector.insert %row, %ins[%n] : vector<8xf32> into vector<4x8xf32>
  %w = vector.transfer_write %ins2, %t[%c0, %c0] {in_bounds = [true, false]} : vector<4x8xf32>, tensor<4x8xf32>
  %w2 = vector.transfer_write %col, %w[%c0, %i], %mask {permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, tensor<4x8xf32>
  vector.print %e : f32
  vector.print %prod : vector<4x8xf32> punctuation <comma>
  vector.print str "done\\n"
  vector.print punctuation <newline>
  %r = vector.reduction <add>, %row, %s fastmath<fast> : vector<8xf32> into f32
  %mx = vector.reduction <maximumf>, %row : vector<8xf32> into f32
  %fma = vector.fma %a, %b, %k : vector<4x8xf32>
  %acc = arith.constant dense<0.0> : vector<4x4xf32>
  %ct = vector.contract #mm %a, %tr, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
  %cm = vector.create_mask %n : vector<8xi1>
  %km = vector.constant_mask [3] : vector<8xi1>
  %st = vector.step : vector<8xindex>
  %ld = vector.load %m[%i] : memref<16xf32>, vector<8xf32>
  vector.store %ld, %m[%n] : memref<16xf32>, vector<8xf32>
  %sc = vector.shape_cast %a : vector<4x8xf32> to vector<32xf32>
  %bc = vector.bitcast %ld : vector<8xf32> to vector<8xi32>
  %ss = vector.extract_strided_slice %ld {offsets = [2], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %tp = vector.transpose %a, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  %fe = vector.from_elements %s, %e : vector<2xf32>
  return %w2 : tensor<4x8xf32>
}
"""


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_syntax_round_trip_is_the_same_module(generic: bool) -> None:
    mine = print_module(parse(SYNTAX, "v.mlir"), generic=generic)
    assert oracle.normalize(mine) == oracle.normalize(SYNTAX)


def test_transfer_representation() -> None:
    ops = {op.results[0].name: op for op in parse(SYNTAX, "v.mlir").walk()
           if op.results and op.results[0].name}
    col = ops["col"]
    assert str(col.attrs["operandSegmentSizes"]) == "array<i32: 1, 2, 1, 1>"
    assert str(col.attrs["in_bounds"]) == "[false]"
    a = ops["a"]
    assert str(a.attrs["permutation_map"]) == "affine_map<(d0, d1) -> (d0, d1)>"
    w = ops["w"]
    assert [v.name for v in w.operands] == ["ins2", "t", "c0", "c0"]
    assert str(w.attrs["operandSegmentSizes"]) == "array<i32: 1, 1, 2, 0>"
    assert str(ops["row"].attrs["static_position"]) == "array<i64: -9223372036854775808>"


def test_bare_print_is_not_followed_by_a_binding() -> None:
    """mlir-opt prints `vector.print` bare, and then reads the next line's `%x` as its
    operand; we spell the default punctuation instead."""
    text = 'func.func @f(%x: f32) {\n  "vector.print"() : () -> ()\n  %y = arith.addf %x, %x : f32\n  return\n}\n'
    out = print_module(parse(text, "p.mlir"))
    assert "vector.print punctuation <newline>\n" in out
    print_module(parse(out, "again.mlir"))


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_programs_round_trip(path: Path) -> None:
    text = path.read_text()
    assert oracle.normalize(print_module(parse(text, path.name))) == oracle.normalize(text)


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_decisions_equal_mlir_opt(path: Path) -> None:
    text = path.read_text()
    want = analysis_oracle(text)
    assert want, "mlir-opt must analyse the program"
    assert analysis_ours(text, path.name) == want


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("name", DIFFER_PRINTS)
def test_partial_write_differs_only_at_the_dead_fill(name: str) -> None:
    text = (DIFFERS / f"{name}.mlir").read_text()
    want, got = analysis_oracle(text), analysis_ours(text, name)
    assert want[0] == ["none", "true"] and got[0] == ["none", "false"]
    assert want[1:] == got[1:]


GENERIC_BAD = [
    '"vector.transfer_read"(%t, %c0, %pad) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, '
    'permutation_map = affine_map<(d0, d1) -> (d1)>}> : (tensor<4x8xf32>, index, f32) -> vector<4xf32>',
    '"vector.transfer_read"(%t, %c0, %pad) <{in_bounds = [false], operandSegmentSizes = '
    'array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0, d1) -> (d1)>}> : '
    '(tensor<4x8xf32>, index, f32) -> vector<4xf32>',
    '"vector.extract"(%v) : (vector<4x8xf32>) -> f32',
    '"vector.reduction"(%pad) : (f32) -> f32',
]


def _rejected_like_mlir_opt(op: str) -> tuple[str, str]:
    """``op`` in a small function: mlir-opt rejects it and so do we, at the same place.
    Returns (our message, mlir-opt's message)."""
    text = ("func.func @f(%t: tensor<4x8xf32>, %v: vector<4x8xf32>) {\n"
            "  %c0 = arith.constant 0 : index\n  %pad = arith.constant 0.0 : f32\n"
            f"  %x = {op}\n  return\n}}\n")
    theirs = subprocess.run([oracle.MLIR_OPT, "-"], input=text, capture_output=True, text=True)
    m = re.search(r"<stdin>:(\d+:\d+): error: (.*)", theirs.stderr)
    assert m, "mlir-opt accepts it"
    with pytest.raises(UserError) as e:
        parse(text, "<stdin>")
    assert str(e.value).startswith(f"<stdin>:{m.group(1)}: error: ")
    return str(e.value), m.group(2)


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("op", GENERIC_BAD)
def test_invalid_generic_form_rejected_like_mlir_opt(op: str) -> None:
    """Generic-form vector ops are verified as mlir-opt does (a custom printer never meets
    an op without its properties)."""
    _rejected_like_mlir_opt(op)


BAD = [
    ("vector.transfer_read %t[%c0], %pad : tensor<4x8xf32>, vector<4xf32>", "requires 2 indices"),
    ("vector.transfer_read %t[%c0, %c0], %pad {permutation_map = affine_map<(d0) -> (d0)>} "
     ": tensor<4x8xf32>, vector<4xf32>", "input dims of the same rank as the source type"),
    ("vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true, true]} "
     ": tensor<4x8xf32>, vector<4xf32>", "in_bounds attr of same rank"),
    ("vector.extract %v[1] : f32 from vector<4x8xf32>", ""),
    ("vector.broadcast %pad : f32 to f32", "invalid kind of type specified"),
]


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize(("op", "fragment"), BAD)
def test_invalid_rejected_like_mlir_opt(op: str, fragment: str) -> None:
    ours, theirs = _rejected_like_mlir_opt(op)
    assert fragment in ours and fragment in theirs


RUNNABLE = [p for p in PROGRAMS if p.stem.startswith("run_")]
needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")


def _bufferize(text: str, name: str = "g.mlir"):
    from bufferlog.backend.bufferize import bufferize
    return bufferize(parse(text, name))


def _bufferized(path: Path) -> str:
    return print_module(_bufferize(path.read_text(), path.name))


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: p.stem)
def test_runs_like_mlir_opts_pipeline(path: Path) -> None:
    """Transfers on buffers (a copy where the destination is out of place), vector.print,
    masks and reductions print what mlir-opt's own bufferization prints, leak-free."""
    got = oracle.run_program(_bufferized(path))
    want = oracle.run_reference(path.read_text())
    assert got.returncode == 0, got.stderr
    assert got.masked_stdout == want.masked_stdout
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0)


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("name", DIFFER_PRINTS)
def test_partial_write_keeps_the_unwritten_elements(name: str) -> None:
    """mlir-opt 22's pipeline writes the dead fill into the destination and prints 7
    where the write did not reach; the program (and bufferlog's output) keeps the
    input's values there."""
    path = DIFFERS / f"run_{name}.mlir"
    ours, theirs = DIFFER_PRINTS[name]
    got = oracle.run_program(_bufferized(path))
    assert oracle.print_data(got.stdout) == ours
    assert (got.returncode, got.live, got.double_frees, got.bad_frees) == (0, 0, 0, 0)
    assert oracle.print_data(oracle.run_reference(path.read_text()).stdout) == theirs


GEN_SEEDS = range(int(os.environ.get("BUFFERLOG_VECTOR_SEEDS", "12")))


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("seed", GEN_SEEDS)
def test_generated_transfer_programs(seed: int) -> None:
    """tests/gen_vector_programs.py: tiles and rows of a live tensor read, computed and
    written back (masked or not, in loops, with the input read in between): decisions
    equal mlir-opt's, and the bufferized program prints what mlir-opt's pipeline prints,
    leak-free."""
    text = gen_vector_programs.generate(seed)
    assert analysis_ours(text, f"seed{seed}") == analysis_oracle(text)
    got = oracle.run_program(print_module(_bufferize(text)))
    want = oracle.run_reference(text)
    assert got.returncode == 0, got.stderr
    assert got.masked_stdout == want.masked_stdout
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0)
