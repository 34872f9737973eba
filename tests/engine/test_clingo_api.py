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
