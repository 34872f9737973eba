"""mlir-opt's habits on every command: stdin by default, ``--verify-diagnostics`` (checked
against mlir-opt-22's own verdicts on the same file), ``--split-input-file`` on explain,
facts and batch, ``--mlir-print-op-generic``, ``--mlir-timing``,
``--allow-unregistered-dialect``, bytecode refused; Soufflé's ``-D -`` and default ``-F``;
``facts -o -``; the first run saying that it builds the parser tables."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle  # noqa: E402

from bufferlog.cli import main  # noqa: E402
from bufferlog.verify_diagnostics import expected_diagnostics  # noqa: E402

HERE = Path(__file__).resolve().parent
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
RAW = (oracle.REPO / "examples" / "raw_conflict.mlir").read_text()

LOOP = """func.func @{name}(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> tensor<4xf32> {{
    %e = tensor.empty() : tensor<4xf32>
{inside}
  }}
  return %r : tensor<4xf32>
}}
"""
YIELD = "    scf.yield %e : tensor<4xf32>"
# each chunk with the verdict it earns: matched forms, then each kind of mismatch
VERIFY = "\n// -----\n\n".join([
    LOOP.format(name="below", inside="    // expected-error@below {{Yield operand #0 is not}}\n"
                + YIELD),
    LOOP.format(name="above", inside=YIELD + "\n    // expected-error-re@above "
                "{{Yield operand #{{[0-9]+}} is not equivalent}}"),
    LOOP.format(name="plus", inside="    // expected-error@+2 {{corresponding iter bbArg}}\n"
                "    // a comment between\n" + YIELD),
    LOOP.format(name="same_line", inside=YIELD + " // expected-error {{Yield operand}}"),
    LOOP.format(name="note", inside="    // expected-error@below {{Yield}}\n"
                "    // expected-note@below {{never produced}}\n" + YIELD),
    LOOP.format(name="kind", inside=YIELD + " // expected-warning {{Yield operand}}"),
    LOOP.format(name="elsewhere", inside="    // expected-error@-3 {{Yield operand}}\n" + YIELD),
    LOOP.format(name="in_place", inside="    scf.yield %a : tensor<4xf32>"),
])


def errors(stderr: str) -> list[str]:
    return [ln for ln in stderr.splitlines() if ": error: " in ln]


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("level", ["", "=only-expected"])
def test_verify_diagnostics_as_mlir_opt(tmp_path, level):
    """The same file, the same verdicts as mlir-opt-22: every matched form passes, every
    mismatch is reported at the same place with the same words, in the same order."""
    f = tmp_path / "v.mlir"
    f.write_text(VERIFY)
    args = [str(f), "-one-shot-bufferize=bufferize-function-boundaries", "-split-input-file",
            f"-verify-diagnostics{level}"]
    ref = subprocess.run([oracle.MLIR_OPT, *args], capture_output=True, text=True)
    ours = subprocess.run([sys.executable, "-m", "bufferlog", "opt", *args],
                          capture_output=True, text=True, cwd=oracle.REPO)
    assert ours.returncode == ref.returncode == 1
    assert errors(ours.stderr) == errors(ref.stderr) and len(errors(ref.stderr)) >= 3
    out = [c for c in ours.stdout.split("// -----") if "func.func" in c]
    assert len(out) == 1 and "@in_place" in out[0]  # the one chunk without a diagnostic


def test_expected_diagnostic_lines():
    text = ("a\n// expected-error@below {{x}}\n// expected-note@below {{y}}\nb\n"
            "c // expected-warning {{z}}\n// expected-remark@above {{w}}\n"
            "// expected-error@+2 {{p}}\n// expected-error@-1 {{q}}\n"
            "// expected-error@unknown {{u}}\n// expected-error-re {{a{{[0-9]}}b}}\n"
            "// expected-error@below {{dangling}}\n")
    got = {e.text: e.line for e in expected_diagnostics(text, "f")}
    # @above: the last line without a designator (line 5 has one, so line 4, as mlir-opt)
    assert got == {"x": 4, "y": 4, "z": 5, "w": 4, "p": 9, "q": 7, "u": None,
                   "a{{[0-9]}}b": 10, "dangling": 12}
    re_e = next(e for e in expected_diagnostics(text, "f") if e.pattern is not None)
    assert re_e.match("xa7by") and not re_e.match("a{{7}}b")


def test_stdin_is_the_default_input():
    r = subprocess.run([sys.executable, "-m", "bufferlog", "analyze"], input=RAW,
                       capture_output=True, text=True, cwd=oracle.REPO)
    assert r.returncode == 0 and '"C_0[CONFL-WRITE: 1]"' in r.stdout
    bad = subprocess.run([sys.executable, "-m", "bufferlog", "print"], input="func.func @f( {",
                         capture_output=True, text=True, cwd=oracle.REPO)
    assert bad.returncode == 1 and bad.stderr.startswith("<stdin>:1:")


@needs_oracle
def test_bytecode_is_refused_clearly(tmp_path, capsys):
    bc = tmp_path / "f.mlirbc"
    subprocess.run([oracle.MLIR_OPT, "-", "--emit-bytecode", "-o", str(bc)], input=RAW,
                   text=True, check=True)
    assert bc.read_bytes().startswith(b"ML\xefR")
    assert main(["analyze", str(bc)]) == 1
    err = capsys.readouterr().err
    assert "is MLIR bytecode" in err and "UTF-8" not in err and "internal" not in err


def test_print_flags_of_mlir_opt(tmp_path, capsys):
    f = tmp_path / "f.mlir"
    f.write_text(RAW)
    assert main(["print", str(f), "--generic"]) == 0
    generic = capsys.readouterr().out
    assert main(["print", str(f), "-mlir-print-op-generic", "-allow-unregistered-dialect"]) == 0
    assert capsys.readouterr().out == generic and '"tensor.insert"' in generic
    assert main(["bufferize", str(f), "-mlir-print-op-generic", "-mlir-timing"]) == 0
    out = capsys.readouterr()
    assert '"memref.copy"' in out.out and "execution time report" in out.err


def test_explain_and_facts_split_input(tmp_path, capsys):
    f = tmp_path / "two.mlir"
    f.write_text(RAW + "\n// -----\n\n" + RAW)
    second = RAW.count("\n") + 3 + 5  # the tensor.insert of the second chunk
    assert main(["explain", str(f), "--op", str(second), "--depth", "0", "--split-input-file",
                 "--engine", "embedded"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{f}:{second}:3: %1 = tensor.insert") and "OUT OF PLACE" in out
    assert main(["explain", str(f), "--op", "5", "--depth", "0"]) == 1  # one module: redefined
    capsys.readouterr()
    assert main(["facts", str(f), "-o", str(tmp_path / "facts"), "--split-input-file"]) == 0
    ops = [len((tmp_path / "facts" / n / "op.facts").read_text().splitlines()) for n in "12"]
    assert ops[0] == ops[1] > 0


def test_batch_split_input(tmp_path, capsys):
    f = tmp_path / "two.mlir"
    bad = "func.func @g() {\n  %0 = foo.bar\n}\n"
    f.write_text(RAW + "// -----\n" + bad)
    report = tmp_path / "r.json"
    assert main(["batch", str(f), "-j", "1", "--no-cache", "-q", "--split-input-file",
                 "--report", str(report)]) == 1
    rows = {r["file"]: r for r in json.loads(report.read_text())["rows"]}
    lines = f.read_text().splitlines()
    first = lines.index("// -----") + 1  # the second chunk starts on the marker's line
    bad_line = next(n for n, ln in enumerate(lines, 1) if "foo.bar" in ln)
    assert rows[f"{f}:1"]["status"] == "ok" and rows[f"{f}:1"]["copies"] == 1
    assert rows[f"{f}:{first}"]["status"] == "error"
    assert rows[f"{f}:{first}"]["error_loc"] == f"{f}:{bad_line}:8"  # the whole file's line


PROG = """.decl edge(a: symbol, b: symbol)
.input edge
.decl path(a: symbol, b: symbol)
.output path
path(a, b) :- edge(a, b).
path(a, c) :- path(a, b), edge(b, c).
"""


def test_datalog_souffle_output_and_facts_defaults(tmp_path, capsys, monkeypatch):
    (tmp_path / "p.dl").write_text(PROG)
    (tmp_path / "edge.facts").write_text("a\tb\nb\tc\n")
    monkeypatch.chdir(tmp_path)
    assert main(["datalog", "run", "p.dl", "-D", "-", "--engine", "embedded"]) == 0  # -F .
    assert capsys.readouterr().out == ("---------------\npath\n===============\n"
                                       "a\tb\na\tc\nb\tc\n===============\n")
    assert not (tmp_path / "-").exists()
    (tmp_path / "f.mlir").write_text(RAW)
    assert main(["facts", "f.mlir", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert not (tmp_path / "-").exists()
    blocks = re.findall(r"---------------\n(\w+)\n===============\n(.*?)===============\n",
                        out, re.S)
    assert main(["facts", "f.mlir", "-o", "dir"]) == 0
    for rel, rows in blocks:  # the same tuples as the files, in Soufflé's stdout layout
        assert sorted(rows.splitlines()) == sorted(
            (tmp_path / "dir" / f"{rel}.facts").read_text().splitlines())
    assert len(blocks) == len(list((tmp_path / "dir").iterdir())) > 10


def test_first_run_says_it_builds_the_parser_tables(tmp_path):
    env = {"BUFFERLOG_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    run = [sys.executable, "-m", "bufferlog", "print", str(oracle.REPO / "examples" /
                                                           "raw_conflict.mlir")]
    first = subprocess.run(run, capture_output=True, text=True, env=env, cwd=oracle.REPO)
    assert first.returncode == 0 and "building the parser tables" in first.stderr
    again = subprocess.run(run, capture_output=True, text=True, env=env, cwd=oracle.REPO)
    assert again.returncode == 0 and again.stderr == ""
