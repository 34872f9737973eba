"""CLI conventions: located errors with exit 1 for bad input, one-line internal errors."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import time

import pytest

from bufferlog import cli
from bufferlog.commands import print as print_cmd

BAD = {
    "undefined.mlir": ("func.func @f(%a: tensor<4xf32>) {\n  %0 = tensor.extract %b[%c] : tensor<4xf32>\n"
                       "  return\n}\n", ":2:23: error: use of undefined value '%b'"),
    "unknown.mlir": ("func.func @f() {\n  %0 = foo.bar %x\n}\n", ":2:8: error: unknown operation 'foo.bar'"),
    "syntax.mlir": ("func.func @f( {\n}\n", ":1:15: error:"),
}


@pytest.mark.parametrize("command", [["print"], ["analyze"], ["bufferize"], ["dealloc"],
                                     ["explain", "--op", "2"]])
@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_a_located_error(command, name, tmp_path, capsys):
    src, expected = BAD[name]
    f = tmp_path / name
    f.write_text(src)
    assert cli.main([*command, str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{f}{expected}") and "Traceback" not in err


def test_missing_file(capsys):
    assert cli.main(["print", "/nonexistent/x.mlir"]) == 1
    assert capsys.readouterr().err.strip() == "error: no such file: /nonexistent/x.mlir"


def test_internal_error_is_one_line(monkeypatch, tmp_path, capsys):
    def boom(args):
        raise ValueError("simulated bug")

    monkeypatch.setattr(print_cmd, "run", boom)
    f = tmp_path / "ok.mlir"
    f.write_text("func.func @f() {\n  return\n}\n")
    monkeypatch.delenv("BUFFERLOG_DEBUG", raising=False)
    assert cli.main(["print", str(f)]) == 2
    err = capsys.readouterr().err
    assert "internal error: ValueError: simulated bug" in err and "Traceback" not in err


def test_bufferize_uses_the_rules_overlay(tmp_path, capsys):
    """`bufferize --rules DIR` analyses with the overlay: a broken overlay is reported."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "mine.dl").write_text('sem_read("my.op", 0, 1).\n')
    f = tmp_path / "ok.mlir"
    f.write_text("func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {\n  return %t : tensor<4xf32>\n}\n")
    assert cli.main(["bufferize", str(f)]) == 0
    capsys.readouterr()
    assert cli.main(["bufferize", str(f), "--rules", str(rules)]) == 1
    assert f"{rules / 'mine.dl'}:1:1: error:" in capsys.readouterr().err


# ---------------------------------------------------------------- mlir-opt-style diagnostics

UNDEF = "func.func @f() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n"


def _bufferlog(*args: str, stdin: str | bytes | None = None, cwd=None):
    return subprocess.run([sys.executable, "-m", "bufferlog", *args], input=stdin,
                          capture_output=True, cwd=cwd, timeout=120,
                          text=not isinstance(stdin, bytes))


@pytest.mark.oracle
def test_caret_diagnostic_matches_mlir_opt(mlir_opt):
    """Location, source line and caret as mlir-opt prints them for the same input."""
    ours = _bufferlog("print", "-", stdin=UNDEF)
    theirs = subprocess.run([mlir_opt], input=UNDEF, capture_output=True, text=True)
    assert ours.returncode == theirs.returncode == 1
    o, t = ours.stderr.splitlines(), theirs.stderr.splitlines()
    assert o[0].startswith("<stdin>:2:19: error: ") and t[0].startswith("<stdin>:2:19: error: ")
    assert o[1:3] == t[1:3] == ["  %0 = arith.addi %x, %x : i32", "                  ^"]


def test_encoding_error_has_line_and_column(tmp_path, capsys):
    f = tmp_path / "bad.mlir"
    f.write_bytes(b"func.func @f() {\n  return \xff\n}\n")
    assert cli.main(["print", str(f)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{f}:2:10: error: input is not valid UTF-8")
    assert err[2] == " " * 9 + "^"


def test_bytes_not_utf8_in_a_comment_are_accepted(tmp_path, capsys):
    """mlir-opt-22 accepts any bytes in a `//` comment; so do we (a `//` inside a string
    is no comment: the byte there stays an error)."""
    f = tmp_path / "comment.mlir"
    f.write_bytes(b'func.func @f() {\n  // caf\xe9 "\xff\n  return\n}\n')
    assert cli.main(["print", str(f)]) == 0
    assert "return" in capsys.readouterr().out
    g = tmp_path / "string.mlir"
    g.write_bytes(b'func.func @f() attributes {a = "x // \xe9"} {\n  return\n}\n')
    assert cli.main(["print", str(g)]) == 1
    assert "input is not valid UTF-8" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["print", "x.mlir", "--bogus"], [],
                                  ["analyze", "x.mlir", "--strategy", "best"],
                                  ["batch", "x", "--max-memory", "lots"]])
def test_usage_errors_exit_1(argv, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 1
    assert "error:" in capsys.readouterr().err


def test_unwritable_output_is_a_user_error(tmp_path, capsys):
    f = tmp_path / "ok.mlir"
    f.write_text("func.func @f() {\n  return\n}\n")
    for cmd in (["print"], ["bufferize"], ["analyze", "--format", "json"]):
        assert cli.main([*cmd, str(f), "-o", str(f / "dir" / "out.mlir")]) == 1  # under a file
        err = capsys.readouterr().err
        assert "error: cannot write output file" in err and "internal" not in err


def test_output_folders_are_made(tmp_path, capsys):
    """``-o out/x.mlir`` makes ``out/`` as ``batch --report`` does (a fresh clone has none)."""
    f = tmp_path / "ok.mlir"
    f.write_text("func.func @f() {\n  return\n}\n")
    out = tmp_path / "no" / "dir" / "out.mlir"
    assert cli.main(["print", str(f), "-o", str(out)]) == 0
    assert out.read_text() == "func.func @f() {\n  return\n}\n"


def test_version_and_python_m():
    r = _bufferlog("--version")
    assert r.returncode == 0 and r.stdout.strip() == "bufferlog 0.1.0"


# ------------------------------------------------------------------------ --split-input-file

SPLIT = ("func.func @a() {\n  return\n}\n\n// -----\n\n" + UNDEF +
         "// -----\nfunc.func @c() {\n  return\n}\n")


@pytest.mark.oracle
def test_split_input_file_like_mlir_opt(mlir_opt, tmp_path):
    """Same chunks, same per-chunk error at the whole file's line:col, the other chunks
    still printed and joined by '// -----' like mlir-opt (whose output we round-trip)."""
    f = tmp_path / "split.mlir"
    f.write_text(SPLIT)
    ours = _bufferlog("print", str(f), "--split-input-file")
    theirs = subprocess.run([mlir_opt, str(f), "--split-input-file"], capture_output=True,
                            text=True)
    assert ours.returncode == theirs.returncode == 1
    assert ours.stderr.splitlines()[0].startswith(f"{f}:8:19: error: ")
    assert theirs.stderr.splitlines()[0].startswith(f"{f}:8:19: error: ")
    assert ours.stdout.count("// -----") == theirs.stdout.count("// -----") == 2
    assert "@a" in ours.stdout and "@c" in ours.stdout
    # chunk by chunk: the failed one is empty in both, the others print the same in mlir-opt
    mine, ref = ours.stdout.split("// -----\n"), theirs.stdout.split("// -----\n")
    assert mine[1] == ref[1] == ""
    for a, b in ((mine[0], ref[0]), (mine[2], ref[2])):
        again = subprocess.run([mlir_opt], input=a, capture_output=True, text=True)
        assert again.returncode == 0 and again.stdout.strip() == b.strip()


def test_split_input_file_on_every_command(tmp_path, capsys):
    f = tmp_path / "s.mlir"
    f.write_text("func.func @a(%t: tensor<4xf32>) -> tensor<4xf32> {\n"
                 "  return %t : tensor<4xf32>\n}\n// -----\n"
                 "func.func @a(%t: tensor<4xf32>) -> tensor<4xf32> {\n"
                 "  return %t : tensor<4xf32>\n}\n")
    for cmd in (["print"], ["analyze"], ["bufferize"]):
        assert cli.main([*cmd, str(f), "--split-input-file"]) == 0  # no redefinition of @a
        assert capsys.readouterr().out.count("// -----") == 1
    assert cli.main(["print", str(f)]) == 1
    assert "redefinition" in capsys.readouterr().err


# ---------------------------------------------------------------------- timing and progress

def test_timing_prints_the_phases(tmp_path, capsys):
    f = tmp_path / "ok.mlir"
    f.write_text("func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {\n"
                 "  return %t : tensor<4xf32>\n}\n")
    assert cli.main(["bufferize", str(f), "--timing"]) == 0
    err = capsys.readouterr().err
    names = re.findall(r"^\s+[\d.]+ \(\s*[\d.]+%\)\s+(\w+)", err, re.M)
    top = re.findall(r"^\s+([\d.]+) \(\s*[\d.]+%\)  (\w+)", err, re.M)  # not indented
    assert [n for _, n in top][:4] == ["parse", "analysis", "bufferize", "dealloc"] and names[-1] == "Total"
    assert names[1:3] == ["analysis", "facts"]  # a parent phase, then the phases inside it
    total = float(re.search(r"Total Execution Time: ([\d.]+)", err).group(1))
    phases = [float(x) for x, _ in top[:4]]
    assert 0 < sum(phases) <= total


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_after_the_delay():
    from bufferlog.core import timing

    with timing.timed() as t:
        out = _Tty()
        sp = cli.Spinner(t, out, delay=0.05, every=0.01).start()
        with timing.phase("analysis"):
            time.sleep(0.2)
        sp.stop()
        text = out.getvalue()
        assert "bufferlog: analysis" in text and text.endswith("\r\x1b[K")
        quick = _Tty()
        sp = cli.Spinner(t, quick, delay=1.0).start()
        sp.stop()  # done before the delay: nothing printed
        assert quick.getvalue() == ""
