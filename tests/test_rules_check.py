"""``rules check`` helps: a user file that replaces a shipped one by its name is named
(and blamed on the errors it causes in the shipped files), an op a fact names that the
frontend does not know and no input uses is flagged with the closest op of the inputs,
and an undeclared relation comes with the closest declared one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MY_OPS = (REPO / "examples" / "myrules" / "my_ops.dl").read_text()


def check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bufferlog", "rules", "check", *args],
                          capture_output=True, text=True, cwd=REPO)


def diagnostics(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ": error: " in ln or ": warning: " in ln]


def test_replacing_a_shipped_file_is_named_on_every_error_it_causes(tmp_path):
    d = tmp_path / "my"
    d.mkdir()
    (d / "ops.dl").write_text(MY_OPS)  # named like the shipped rules/ops.dl
    r = check("--rules", str(d))
    assert r.returncode == 1
    diags = diagnostics(r.stderr)
    warnings = [x for x in diags if ": warning: " in x]
    assert warnings == [f"{d / 'ops.dl'}:1:1: warning: this file replaces the shipped rules/ops.dl "
                        "(same name): the shipped file's declarations and rules are not loaded; "
                        "rename it to add to the shipped rules instead"]
    errors = [x for x in diags if ": error: " in x]
    assert len(errors) > 10
    # every error names the replacement: those about a relation the shipped ops.dl declared
    # say so precisely, wherever they are (the user's file or the shipped ones)
    assert all("replace" in x for x in errors), [x for x in errors if "replace" not in x]
    lost = [x for x in errors if "the shipped rules/ops.dl declares it" in x]
    assert any("/rules/analysis/" in x for x in lost) and any(str(d) in x for x in lost)
    # the same file under another name adds to the shipped rules: no error, no warning
    (d / "ops.dl").rename(d / "my_ops.dl")
    r = check("--rules", str(d), "--input", "examples/my_scale.mlir")
    assert r.returncode == 0 and diagnostics(r.stderr) == [], r.stderr


def test_misspelt_op_in_a_fact(tmp_path):
    d = tmp_path / "acc"
    d.mkdir()
    (d / "acc.dl").write_text('sem_known("my.acum").\nsem_read("my.acum", 0).\n'
                              'sem_known("my.scale").\n')
    src = tmp_path / "f.mlir"
    src.write_text('func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {\n'
                   '  %0 = "my.accum"(%t) : (tensor<4xf32>) -> tensor<4xf32>\n'
                   '  %1 = "my.scale"(%0) : (tensor<4xf32>) -> tensor<4xf32>\n'
                   '  return %1 : tensor<4xf32>\n}\n')
    r = check("--rules", str(d), "--input", str(src))
    assert r.returncode == 0  # a warning, not an error
    (w,) = diagnostics(r.stderr)  # once per op; my.scale is used by the input
    assert w.startswith(f"{d / 'acc.dl'}:1:11: warning: op 'my.acum' is not an op bufferlog's "
                        "frontend knows, and no input file uses it")
    assert w.endswith(f"did you mean 'my.accum', used in {src}?")
    # a known op is never flagged, with or without inputs
    (d / "acc.dl").write_text('sem_known("tensor.insert").\n')
    assert diagnostics(check("--rules", str(d)).stderr) == []


def test_closest_relation_for_a_misspelt_one(tmp_path):
    d = tmp_path / "t"
    d.mkdir()
    (d / "x.dl").write_text('must_copy(o, 1) :- op_loc(o, _, 3, _).\nno_confict(r, 0, w, 1) :- '
                            'op_loc(r, _, 6, _), op_loc(w, _, 5, _).\n')
    r = check("--rules", str(d))
    assert r.returncode == 1
    (e,) = diagnostics(r.stderr)
    assert e == f"{d / 'x.dl'}:2:1: error: relation 'no_confict' is not declared; did you mean 'no_conflict'?"
