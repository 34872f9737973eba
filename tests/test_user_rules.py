"""User rules reach the decisions (issue 9): the extension relations `must_copy` and
`no_conflict` (rules/extensions.dl) in a `--rules DIR` file change `analyze` and
`bufferize`, and `explain` cites the user's file and line."""

from __future__ import annotations

import subprocess
import sys

import pytest

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

PROG = """\
func.func @f(%x: f32, %v: f32, %i: index, %j: index) -> (f32, tensor<3xf32>) {
  %t = tensor.from_elements %x, %x, %x : tensor<3xf32>
  %w = tensor.insert %v into %t[%i] : tensor<3xf32>
  %r = tensor.extract %t[%j] : tensor<3xf32>
  return %r, %w : f32, tensor<3xf32>
}
"""
NO_CONFLICT = """\
// the caller guarantees %i != %j: the extract (line 4) never reads what the insert (line 3) writes
no_conflict(r, 0, w, 1) :- op_loc(r, _, 4, _), op_loc(w, _, 3, _).
"""
MUST_COPY = """\
// keep %t intact for later readers outside this example: copy before the insert (line 3)
must_copy(o, 1) :- op_loc(o, _, 3, _).
"""


def bufferlog(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bufferlog", *args], capture_output=True,
                          text=True, cwd=oracle.REPO)


def insert_inplace(out: str) -> str:
    line = next(ln for ln in out.splitlines() if "tensor.insert" in ln)
    return line.split("__inplace_operands_attr__ = [")[1].split("]")[0]


@pytest.fixture
def files(tmp_path):
    src = tmp_path / "f.mlir"
    src.write_text(PROG)
    (tmp_path / "nc").mkdir()
    (tmp_path / "nc" / "trust.dl").write_text(NO_CONFLICT)
    (tmp_path / "mc").mkdir()
    (tmp_path / "mc" / "force.dl").write_text(MUST_COPY)
    return tmp_path


def test_no_conflict_puts_the_write_in_place(files):
    src = str(files / "f.mlir")
    plain = bufferlog("analyze", src, "--engine", "embedded")
    assert insert_inplace(plain.stdout) == '"none", "false", "none"'
    user = bufferlog("analyze", src, "--engine", "embedded", "--rules", str(files / "nc"))
    assert user.returncode == 0, user.stderr
    assert insert_inplace(user.stdout) == '"none", "true", "none"'
    out = bufferlog("bufferize", src, "--rules", str(files / "nc")).stdout
    assert "memref.copy" not in out and "memref.store" in out
    why = bufferlog("explain", src, "--op", "3", "--engine", "embedded", "--depth", "3",
                    "--rules", str(files / "nc"))
    assert f"{files / 'nc' / 'trust.dl'}:2: no_conflict(r, 0, w, 1)" in why.stdout


def test_must_copy_forces_a_copy(files):
    prog = PROG.replace("%r = tensor.extract %t[%j]", "%r = tensor.extract %w[%j]")
    src = files / "g.mlir"
    src.write_text(prog)
    plain = bufferlog("analyze", str(src), "--engine", "embedded")
    assert insert_inplace(plain.stdout) == '"none", "true", "none"'
    user = bufferlog("analyze", str(src), "--engine", "embedded", "--rules", str(files / "mc"))
    assert insert_inplace(user.stdout) == '"none", "false", "none"'
    out = bufferlog("bufferize", str(src), "--rules", str(files / "mc")).stdout
    assert "memref.copy" in out
    why = bufferlog("explain", str(src), "--op", "3", "--engine", "embedded", "--depth", "2",
                    "--rules", str(files / "mc"))
    assert "forced out of place by a must_copy rule" in why.stdout
    assert f"{files / 'mc' / 'force.dl'}:2: must_copy(o, 1)" in why.stdout
