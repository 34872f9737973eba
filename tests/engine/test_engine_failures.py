"""Failure behaviour: timeouts, malformed facts, missing engines — a clear error naming
the engine and the relation, never a hang or a silent empty result."""

from __future__ import annotations

import pytest
from bufferlog.engine import EngineError, MalformedFacts, Program, run

from bufferlog.cli import main
from bufferlog.core import UserError

COUNTER = """\
.decl n(x: number)
.output n
n(0).
n(x + 1) :- n(x), x < 2000000000.
"""

TYPED = """\
.decl w(name: symbol, n: number)
.input w
.decl o(n: number)
.output o
o(n) :- w(_, n).
"""


def test_timeout_kills_the_embedded_engine(tmp_path):
    f = tmp_path / "count.dl"
    f.write_text(COUNTER)
    with pytest.raises(EngineError, match=r"embedded engine \(clingo\) timed out after 1 s "
                                          r"evaluating .*count\.dl"):
        run(Program.load(f), engine="embedded", timeout=1)


def test_timeout_on_the_cli(tmp_path, capsys):
    f = tmp_path / "count.dl"
    f.write_text(COUNTER)
    assert main(["datalog", "run", str(f), "--engine", "embedded", "--timeout", "0.5"]) == 1
    assert "error: embedded engine (clingo) timed out after 0.5 s" in capsys.readouterr().err


def test_timeout_not_hit_returns_results():
    prog = Program.from_text(TYPED)
    assert run(prog, {"w": [("a", 1)]}, engine="embedded", timeout=30).relations == {"o": {(1,)}}


def facts_dir(tmp_path, text: str):
    d = tmp_path / "facts"
    d.mkdir()
    (d / "w.facts").write_text(text)
    return d


def test_malformed_facts_wrong_arity(tmp_path):
    d = facts_dir(tmp_path, "a\t1\nb\t2\t3\n")
    with pytest.raises(MalformedFacts) as e:
        run(Program.from_text(TYPED), d, engine="embedded")
    assert str(e.value) == (f"{d}/w.facts:2:1: error: relation 'w' expects 2 tab-separated "
                            "column(s), got 3")


def test_malformed_facts_not_a_number(tmp_path):
    d = facts_dir(tmp_path, "a\t1\nbb\tx7\n")
    with pytest.raises(MalformedFacts) as e:
        run(Program.from_text(TYPED), d, engine="embedded")
    assert str(e.value) == (f"{d}/w.facts:2:4: error: relation 'w', column 2: expected a "
                            "number, got 'x7'")


def test_malformed_facts_out_of_range(tmp_path):
    d = facts_dir(tmp_path, "a\t2147483648\n")
    with pytest.raises(MalformedFacts, match="expected a number, got '2147483648'"):
        run(Program.from_text(TYPED), d, engine="embedded")


@pytest.mark.parametrize("facts, msg", [
    ({"w": [("a",)]}, "relation 'w', tuple 1: expected 2 column(s), got 1"),
    ({"w": [("a", "1")]}, "relation 'w', tuple 1, column 2: expected a number, got '1'"),
    ({"w": [(1, 1)]}, "relation 'w', tuple 1, column 1: expected a symbol (str), got 1"),
    ({"w": [("a", True)]}, "expected a number, got True"),
    ({"o": [(1,)]}, "facts given for relation 'o', which is not an .input"),
    ({"zz": [(1,)]}, "facts given for undeclared relation 'zz'"),
])
def test_malformed_in_memory_facts(facts, msg):
    with pytest.raises(MalformedFacts, match=msg.replace("(", r"\(").replace(")", r"\)")):
        run(Program.from_text(TYPED), facts, engine="embedded")


def test_tab_in_symbol_cannot_go_to_a_facts_file(tmp_path):
    from bufferlog.engine import write_facts_dir
    with pytest.raises(MalformedFacts, match="relation 'w', tuple 1: symbol 'a\\\\tb' contains a tab"):
        write_facts_dir({"w": [("a\tb", 1)]}, tmp_path)


def test_invalid_program_is_rejected_before_running():
    prog = Program.from_text(".decl a(x: number)\n.output a\na(x) :- a(x), !a(x + 1).\n", "bad.dl")
    with pytest.raises(UserError, match="bad.dl:3:15: error: negation over 'a'"):
        run(prog, engine="embedded")


def test_missing_souffle_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("BUFFERLOG_SOUFFLE", "/nonexistent/souffle")
    with pytest.raises(EngineError, match="souffle engine: no `souffle` on PATH"):
        run(Program.from_text(TYPED), engine="souffle")


def test_auto_picks_embedded_without_souffle(monkeypatch):
    monkeypatch.setenv("BUFFERLOG_SOUFFLE", "/nonexistent/souffle")
    assert run(Program.from_text(TYPED), engine="auto").engine == "embedded"


def test_cli_run_writes_csv(tmp_path, capsys):
    f = tmp_path / "p.dl"
    f.write_text(TYPED)
    d = facts_dir(tmp_path, "a\t1\nb\t-2\n")
    out = tmp_path / "out"
    assert main(["datalog", "run", str(f), "--facts", str(d), "-D", str(out),
                 "--engine", "embedded"]) == 0
    assert (out / "o.csv").read_text() == "-2\n1\n"
