"""Locations end to end (issue 13 item 3): the input's ``loc(...)`` survives, every
output op carries the location of the input op it came from (``--mlir-print-debuginfo``),
the allocs, copies and frees bufferlog adds name their cause, and ``explain`` takes a
line of that output. mlir-opt-22 is the oracle for which location each op gets."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import gen_programs
import oracle
import pytest

from bufferlog import cli

needs_opt = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")

# programs on which bufferlog's decisions equal mlir-opt's (the others differ on purpose)
MISCOMPILES = [Path(__file__).parent / "miscompiles" / f"{n}.mlir" for n in (
    "loop_reads_fill_of_written_empty", "two_transposes_one_empty", "transpose_into_constant",
    "two_inserts_one_tensor", "two_inserts_across_call")]
LOC = re.compile(r' loc\((?:"(?:[^"\\]|\\.)*"\()?"((?:[^"\\]|\\.)*)":(\d+):(\d+)\)+\s*\{?$')
OP = re.compile(r"^\s*(?:%[\w#:, %]+ = )?([a-z_]+\.[a-z_]+)")
ADDED = ("memref.alloc", "memref.copy")


def run_cli(capsys, *argv) -> str:
    assert cli.main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def located_ops(text: str) -> Counter:
    """(op name, innermost file:line:col) of the alloc and copy ops of an output printed
    by mlir-opt-22 with --mlir-print-local-scope (every location inline)."""
    out: Counter = Counter()
    for line in text.splitlines():
        op, loc = OP.match(line), LOC.search(line)
        if op and op.group(1) in ADDED and loc:
            out[(op.group(1), f"{Path(loc.group(1)).name}:{loc.group(2)}:{loc.group(3)}")] += 1
    return out


def normalized(text: str) -> str:
    """Our output through mlir-opt-22 (it must accept it), locations printed inline."""
    return oracle.mlir_opt(text, "--mlir-print-debuginfo", "--mlir-print-local-scope")


CASES = [*[(p.name, p.read_text()) for p in MISCOMPILES],
         *[(f"gen{s}", gen_programs.generate(s, 10, dps=True)) for s in range(4)]]


@needs_opt
@pytest.mark.oracle
@pytest.mark.parametrize("name,text", CASES, ids=[c[0] for c in CASES])
def test_added_ops_carry_mlir_opts_locations(tmp_path, capsys, name, text):
    """Every memref.alloc and memref.copy of ours sits at the input location mlir-opt-22
    gives its own (same multiset, no dealloc: mlir-opt frees elsewhere), and mlir-opt-22
    accepts the located output."""
    f = tmp_path / "in.mlir"
    f.write_text(text)
    ours = run_cli(capsys, "bufferize", str(f), "--mlir-print-debuginfo", "--no-dealloc",
                   "--plan", "none")  # no memory planning: the same allocs as mlir-opt
    theirs = oracle.mlir_opt(f, "--one-shot-bufferize=bufferize-function-boundaries "
                             "function-boundary-type-conversion=identity-layout-map",
                             "--mlir-print-debuginfo", "--mlir-print-local-scope")
    assert located_ops(normalized(ours)) == located_ops(theirs)


SRC = """func.func @f(%v: f32, %i: index, %c: i1) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32> loc("model.py":10:4)
  %z = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32> loc(#l1)
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %z : tensor<4xf32>
  } else {
    scf.yield %z : tensor<4xf32>
  }
  %w = tensor.insert %v into %r[%i] : tensor<4xf32>
  %x = tensor.extract %z[%i] : tensor<4xf32>
  return %w, %x : tensor<4xf32>, f32
}
#l1 = loc("model.py":11:4)
"""


@needs_opt
def test_input_locations_survive_and_causes_are_named(tmp_path, capsys):
    f = tmp_path / "in.mlir"
    f.write_text(SRC)
    out = run_cli(capsys, "bufferize", str(f), "--mlir-print-debuginfo")
    lines = out.splitlines()
    (alloc0,) = [ln for ln in lines if "memref.alloc" in ln and "model.py" in ln]
    # the empty's own location, named by why the alloc exists
    assert alloc0.endswith('loc("the buffer of %e = tensor.empty: a new tensor"("model.py":10:4))')
    assert any("linalg.fill" in ln and ln.endswith("loc(#l1)") for ln in lines)
    (copy,) = [ln for ln in lines if "memref.copy" in ln]
    # the copy: the operand by its syntax, the conflicting write and the read, the input op
    assert "out-of-place into %r of tensor.insert" in copy
    assert "tensor.insert at 9:3" in copy and "tensor.extract at 10:3" in copy
    assert copy.endswith(f'("{f}":9:8))')  # at the op name, as mlir-opt locates ops
    frees = [ln for ln in lines if "memref.dealloc" in ln]
    assert frees and all('loc("free of ' in ln for ln in frees)
    normalized(out)  # mlir-opt-22 accepts every location we print
    plain = run_cli(capsys, "bufferize", str(f))
    assert ") loc(" not in plain  # only with the flag (the alias definition stays)


def test_explain_takes_a_line_of_the_output(tmp_path, capsys):
    f = tmp_path / "in.mlir"
    f.write_text(SRC)
    out_file = tmp_path / "out.mlir"
    run_cli(capsys, "bufferize", str(f), "--mlir-print-debuginfo", "-o", str(out_file))
    copy_line = 1 + next(k for k, ln in enumerate(out_file.read_text().splitlines())
                         if "memref.copy" in ln)
    by_output = run_cli(capsys, "explain", str(f), "--op", f"{out_file}:{copy_line}")
    by_input = run_cli(capsys, "explain", str(f), "--op", "9")
    by_loc = run_cli(capsys, "explain", str(f), "--op", f"{f}:9:3")
    assert by_input == by_loc
    assert by_input.startswith(f"{f}:9:3: %w = tensor.insert")
    # from the output: that op and its cause first, then the input op's explanation
    head, cause, rest = by_output.split("\n", 2)
    assert head == f"{out_file}:{copy_line}: memref.copy %r, %1 : memref<4xf32> to memref<4xf32>"
    assert cause.startswith("  cause: out-of-place into %r of tensor.insert: in place, the write")
    assert rest == by_input
    # the operand named as written, and how its buffer arrives: through the scf.if
    assert "operand #1 `into %r`: OUT OF PLACE" in by_input
    assert re.search(r"alias path: %e \(tensor.empty at .*:2:3\) -> %z \(linalg.fill at "
                     r".*:3:3\) -> %r \(scf.if at .*:4:3\)", by_input)
    assert cli.main(["explain", str(f), "--op", f"{out_file}:2"]) == 1  # func.func
    assert "no location on this line" in capsys.readouterr().err


def test_operand_syntax_names():
    from bufferlog.frontend.operand_syntax import operand_syntax
    from bufferlog.frontend.parser import parse

    m = parse(SRC.replace(" loc(#l1)", "").replace("#l1 = loc(\"model.py\":11:4)\n", ""), "x")
    ops = {op.name: op for op in m.walk()}
    assert operand_syntax(ops["linalg.fill"], 1) == "outs(%e)"
    assert operand_syntax(ops["linalg.fill"], 0) == "ins(%v)"
    assert operand_syntax(ops["tensor.insert"], 1) == "into %r"
    assert operand_syntax(ops["tensor.extract"], 0) == "%z"
