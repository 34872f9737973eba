"""engine/clingo_api.py: the embedded engine calls clingo's C library without importing
the clingo package, and gets what the package would give: the model's atoms, clingo's
error messages, no model for an unsatisfiable program; the package imported later shares
the same library."""

from __future__ import annotations

import subprocess
import sys

import pytest
from bufferlog.engine.clingo_api import Control

PROBE = """
import sys
from bufferlog.engine.program import Program
from bufferlog.engine.run import run
p = Program.from_text('''
.decl e(x: number, s: symbol)
.input e
.decl r(x: number, s: symbol)
.output r
r(x, s) :- e(x, s), x > 1.
''')
rel = run(p, {"e": [(1, "a"), (2, "b"), (3, "c d")]}, engine="embedded", relations="all")
print(sorted(rel.relations["r"]), "clingo" in sys.modules)
import clingo
from clingo import _internal
print(_internal._lib is sys.modules["clingo._clingo"].lib)
ctl = clingo.Control(["--warn=none"])
ctl.add("base", [], "a(1). b(X) :- a(X).")
ctl.ground([("base", [])])
print(sorted(str(s) for s in ctl.solve(yield_=True).model().symbols(atoms=True)))
"""


def test_runs_without_the_clingo_package_which_still_imports_afterwards():
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["[(2, 'b'), (3, 'c d')] False", "True",
                                     "['a(1)', 'b(1)']"]


def test_atoms_of_the_model():
    with Control(["--warn=none"]) as ctl:
        ctl.add('p(1). p(-2). q("x y"). #show p/1. #show q/1.')
        ctl.add("r :- p(1). #show r/0.")
        ctl.ground()
        assert sorted(ctl.shown_atoms()) == ["p(-2)", "p(1)", 'q("x y")', "r"]


def test_no_model_is_none():
    with Control(["--warn=none"]) as ctl:
        ctl.add("a. :- a.")
        ctl.ground()
        assert ctl.shown_atoms() is None


@pytest.mark.parametrize("text,said", [("p(X) :- q.", "'X' is unsafe"),  # at ground
                                       ("p(X :- q.", "syntax error")])  # at add
def test_errors_are_runtime_errors_with_clingos_messages(text, said):
    with Control(["--warn=none"]) as ctl:
        with pytest.raises(RuntimeError):
            ctl.add(text)
            ctl.ground()
        assert any(said in m for m in ctl.messages), ctl.messages


def test_facts_of_reads_the_ground_program_across_parts():
    """A later part's atoms without solving; a predicate whose atoms are not all facts
    (a choice) is left to the model (None)."""
    with Control(["--warn=none"]) as ctl:
        ctl.add('e(1). e(2). s("x\\"y").')
        ctl.ground()
        ctl.add("f(X+10) :- e(X). g(X) :- f(X), X > 11. { c(X) : e(X) }.", "next")
        ctl.ground("next")
        assert sorted(ctl.facts_of("f", 1)) == ["f(11)", "f(12)"]
        assert ctl.facts_of("g", 1) == ["g(12)"]
        assert ctl.facts_of("s", 1) == ['s("x\\"y")']
        assert ctl.facts_of("f", 2) == [] and ctl.facts_of("nothing", 0) == []
        assert ctl.facts_of("c", 1) is None


def _model(build) -> list[str]:
    with Control(["--warn=none"]) as ctl:
        build(ctl)
        ctl.ground()
        return sorted(ctl.shown_atoms())


RULES = ['r(X,S) :- e(X,S), X > 1.', 'n :- e(_,"é\\"\\n").', "z :- zero.",
         "#show r/2.", "#show n/0.", "#show z/0.", "#show e/2."]
ROWS = [(1, "a"), (2, "b c"), (-3, 'é"\n'), (2147483647, "")]


def test_parsed_statements_and_backend_facts_give_what_their_text_gives():
    """add_statements (each line parsed once per process) and add_facts (clingo's
    backend) against the text of the same rules and facts: numbers at the 32-bit edge,
    quotes, newlines and non-ASCII strings, a fact of arity 0."""
    text_facts = 'e(1,"a"). e(2,"b c"). e(-3,"é\\"\\n"). e(2147483647,""). zero.'
    by_text = _model(lambda c: (c.add("\n".join(RULES)), c.add(text_facts)))
    for _ in range(2):  # the second time from the caches of statements and symbols
        assert _model(lambda c: (c.add_statements(RULES),
                                 c.add_facts([("e", ROWS), ("zero", [()]), ("none", [])]))) \
            == by_text
    assert 'r(2,"b c")' in by_text and "n" in by_text and "z" in by_text


def test_statements_go_to_their_part_and_facts_are_facts_for_later_parts():
    with Control(["--warn=none"]) as ctl:
        ctl.add_facts([("e", [(1, "a"), (2, "b")])])
        ctl.add_statements(["f(X) :- e(X,_).", "#show f/1."])
        ctl.ground()
        ctl.add_statements(["g(X) :- f(X), X > 1."], "later")
        assert not ctl.has_atoms("g", 1)
        ctl.ground("later")
        assert ctl.facts_of("g", 1) == ["g(2)"] and ctl.facts_of("e", 2) is not None
        assert ctl.has_atoms("e", 2) and not ctl.has_atoms("e", 3)


def test_a_statement_clingo_rejects_is_a_runtime_error():
    with Control(["--warn=none"]) as ctl, pytest.raises(RuntimeError):
        ctl.add_statements(["p(X) :- q."])
        ctl.ground()


def test_a_rule_clingo_rejects_is_named_by_its_location(monkeypatch):
    """The parsed statements carry no line numbers: the evaluation gives the kept rules
    again as text, whose numbered lines name the rule at fault."""
    from bufferlog.engine import embedded
    from bufferlog.engine.program import Program

    prog = Program.from_text(".decl e(x: number)\n.input e\n.decl a(x: number)\n"
                             ".decl b(x: number)\na(x) :- e(x).\nb(x) :- a(x).\n")
    prog.require_valid()
    tr = embedded._translation(prog)
    bad = next(i for i, r in enumerate(prog.rules) if r.head.rel == "b")
    lines = list(tr.lines)
    lines[bad] = lines[bad].replace(":- r_a(V_x)", ":- r_a(_)")  # V_x now unsafe
    monkeypatch.setattr(tr, "lines", lines)
    with pytest.raises(embedded.EngineError) as e:
        embedded.evaluate(prog, {"e": [(1,)]}, ["b"])
    assert f"rejected the rule at {prog.rules[bad].loc}" in e.value.message


def test_lines_parsed_together_keep_their_own_statements():
    """A control's new lines are parsed in one call and split back by line; lines whose
    statements do not start one per line (two on one, none on another: as many as lines
    in all) go line by line, with the same model as the text."""
    for lines in (["u(1).", "v(X) :- u(X).", "#show v/1."],
                  ["w(1). w(2).", "", "t(X) :- w(X).", "#show t/1."]):
        assert _model(lambda c, ls=lines: c.add_statements(ls)) == \
            _model(lambda c, ls=lines: c.add("\n".join(ls)))
    # each line keeps only its own statements for the next control (here: none)
    assert _model(lambda c: c.add_statements(["", "#show w/1."])) == []
