"""`rules check`: each error kind with its exact file:line:col; overlay and includes."""

from __future__ import annotations

import textwrap

import pytest
from bufferlog.engine import Program, check

from bufferlog.cli import main

HEADER = """\
.decl edge(x: symbol, y: symbol)
.input edge
.decl n(v: number)
.decl path(x: symbol, y: symbol)
"""


def diags(tmp_path, body: str, name: str = "p.dl") -> list[str]:
    f = tmp_path / name
    f.write_text(HEADER + textwrap.dedent(body))
    return [str(d).replace(str(tmp_path) + "/", "") for d in check(Program.load(f))]


def test_clean_program_has_no_diagnostics(tmp_path):
    assert diags(tmp_path, "path(x, y) :- edge(x, y).\npath(x, z) :- path(x, y), edge(y, z).\n") == []


@pytest.mark.parametrize("body, expected", [
    ("path(x, y) :- edge(x, y)\n",
     "p.dl:6:1: error: expected ',' or '.', found end of file"),
    ('path(x, y) :- edge(x, "y).\n', "p.dl:5:23: error: unterminated string literal"),
    ("path(x, y) :- edge(x, y), x ^ y = 1.\n",
     "p.dl:5:29: error: operator '^' is not in the portable Soufflé subset"),
    (".decl e2(x: symbol) eqrel\n",
     "p.dl:5:21: error: relation qualifier 'eqrel' is not in the portable Soufflé subset"),
    ("path(x, y) :- edge(x, y), @f(x) = y.\n",
     "p.dl:5:27: error: a user functor is not in the portable Soufflé subset"),
    ("path(x, y) :- edge(x, y) ; edge(y, x).\n",
     "p.dl:5:26: error: disjunction ';' is not in the portable Soufflé subset"),
    ("/* never closed\n", "p.dl:5:1: error: unterminated comment"),
    ("path(x, y) :- edgy(x, y).\n", "p.dl:5:15: error: relation 'edgy' is not declared"),
    ("path(x, y) :- edge(x, y, x).\n",
     "p.dl:5:15: error: relation 'edge' has arity 2 (declared at p.dl:1:7), used here with 3 argument(s)"),
    ("path(x, y) :- edge(x, y), n(x).\n",
     "p.dl:5:29: error: variable 'x' is used as number here but as symbol at p.dl:5:6"),
    ('path(x, "b") :- edge(x, _), n("3").\n',
     'p.dl:5:31: error: symbol value "3" in number attribute \'v\' of \'n\''),
    ("path(x, y) :- edge(x, y), x + 1 = 2.\n", "p.dl:5:27: error: arithmetic on symbol x"),
    ("path(x, y) :- edge(x, _).\n", "p.dl:5:9: error: ungrounded variable 'y' in the head"),
    ("path(x, y) :- edge(x, y), !edge(z, y).\n",
     "p.dl:5:33: error: ungrounded variable 'z' in negation '!edge(z, y)'"),
    ("path(x, x) :- edge(x, _), !path(x, x).\n",
     "p.dl:5:27: error: negation over 'path' in a rule for 'path' cannot be stratified (cycle path -> path)"),
    ("n(c) :- n(c), c = count : { n(_) }.\n",
     "p.dl:5:29: error: count aggregate over 'n' in a rule for 'n' cannot be stratified (cycle n -> n)"),
    (".output nothing\n", "p.dl:5:9: error: .output of undeclared relation 'nothing'"),
    (".decl edge(a: symbol, b: symbol)\n",
     "p.dl:5:7: error: relation 'edge' is already declared at p.dl:1:7"),
    (".decl q(a: float)\n", "p.dl:5:7: error: attribute 'a' of 'q' has unknown type 'float'"),
    ('#include "missing.dl"\n', "p.dl:5:1: error: no such rules file: {tmp}/missing.dl"),
])
def test_each_error_kind(tmp_path, body, expected):
    assert diags(tmp_path, body) == [expected.replace("{tmp}/", "")]


def test_mutual_negation_cycle_names_the_cycle(tmp_path):
    out = diags(tmp_path, """\
        .decl a(x: symbol)
        .decl b(x: symbol)
        a(x) :- edge(x, _), !b(x).
        b(x) :- edge(x, _), a(x).
        """)
    assert out == ["p.dl:7:21: error: negation over 'b' in a rule for 'a' cannot be "
                   "stratified (cycle a -> b -> a)"]


def test_errors_in_included_file_point_into_it(tmp_path):
    (tmp_path / "inc.dl").write_text(".decl q(x: symbol)\nq(x) :- q(x), r(x).\n")
    out = diags(tmp_path, '#include "inc.dl"\n')
    assert out == ["inc.dl:2:15: error: relation 'r' is not declared"]


def test_overlay_overrides_and_adds(tmp_path):
    shipped, user = tmp_path / "shipped", tmp_path / "user"
    shipped.mkdir()
    user.mkdir()
    (shipped / "main.dl").write_text('#include "a.dl"\n.decl out(x: number)\n.output out\nout(x) :- a(x).\n')
    (shipped / "a.dl").write_text(".decl a(x: number)\na(1).\n")
    (user / "a.dl").write_text(".decl a(x: number)\na(2).\n")
    (user / "extra.dl").write_text(".decl more(x: number)\n.output more\nmore(x + 1) :- a(x).\n")
    prog = Program.load(shipped / "main.dl", rules_dir=user)
    assert [p.name for p in prog.files] == ["main.dl", "a.dl", "extra.dl"]
    assert prog.files[1].parent == user
    from bufferlog.engine import run
    assert run(prog, engine="embedded").relations == {"out": {(2,)}, "more": {(3,)}}


def test_cli_rules_check_reports_and_fails(tmp_path, capsys):
    f = tmp_path / "bad.dl"
    f.write_text(".decl a(x: number)\na(x) :- b(x).\n")
    assert main(["rules", "check", str(f)]) == 1
    err = capsys.readouterr().err
    assert f"{f}:2:9: error: relation 'b' is not declared" in err


def test_cli_rules_check_with_overlay_fixing_the_error(tmp_path, capsys):
    f = tmp_path / "main.dl"
    f.write_text('#include "defs.dl"\na(x) :- b(x).\n')
    (tmp_path / "defs.dl").write_text(".decl a(x: number)\n")
    user = tmp_path / "user"
    user.mkdir()
    (user / "defs.dl").write_text(".decl a(x: number)\n.decl b(x: number)\n")
    assert main(["rules", "check", str(f)]) == 1
    assert main(["rules", "check", str(f), "--rules", str(user)]) == 0
    assert "ok: 2 file(s)" in capsys.readouterr().out


def test_cli_rules_list_shows_doc_comments(tmp_path, capsys):
    f = tmp_path / "m.dl"
    f.write_text("/** Edges of the graph.\n *  Directed. */\n.decl edge(x: symbol, y: symbol)\n"
                 ".input edge\n// plain comment\n.decl other(x: number)\n")
    assert main(["rules", "list", str(f)]) == 0
    out = capsys.readouterr().out
    assert f"edge(x: symbol, y: symbol)  [input]  {f}:3:7\n    Edges of the graph.\n    Directed.\n" in out
    assert f"other(x: number)  [derived]  {f}:6:7\n" in out


def test_shipped_rules_check_clean():
    assert [d for d in check(Program.shipped()) if d.severity == "error"] == []


def test_rules_check_fails_without_rule_files(tmp_path, monkeypatch, capsys):
    from bufferlog.cli import main
    from bufferlog.commands import rules as rules_cmd

    monkeypatch.setattr(rules_cmd, "SHIPPED_RULES", tmp_path)
    monkeypatch.setattr(rules_cmd.Program, "shipped", classmethod(lambda cls, rd=None: cls()))
    assert main(["rules", "check"]) == 1
    assert "no rule files found" in capsys.readouterr().err
