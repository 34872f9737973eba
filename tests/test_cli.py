"""CLI conventions: located errors with exit 1 for bad input, one-line internal errors."""

from __future__ import annotations

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
