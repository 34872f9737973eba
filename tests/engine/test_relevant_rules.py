"""The embedded engine gives clingo only the rules that can matter for a run
(``Translation.relevant``): rules whose body needs a relation that has no facts and
cannot be derived, and rules that reach no asked-for relation, are left out. Leaving
them out must change no tuple of an asked-for relation."""

from __future__ import annotations

from pathlib import Path

import pytest
from bufferlog.engine.embedded import _translation
from bufferlog.engine.facts_io import validated
from bufferlog.engine.interface import load
from bufferlog.engine.oneshot import RULES_FILE
from bufferlog.engine.options import OneShotOptions
from bufferlog.engine.program import Program
from bufferlog.engine.run import run
from bufferlog.frontend.facts import export

from bufferlog import api

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


def test_a_count_of_nothing_still_fires():
    """An aggregate's body is not a requirement: ``count`` of an empty relation is 0."""
    prog = Program.from_text("""
.decl e(x: number)
.input e
.decl f(x: number, y: number)
.input f
.decl n(c: number)
.output n
.decl per(x: number, c: number)
.output per
.decl never(x: number)
.output never
n(c) :- c = count : { f(_, _) }.
per(x, c) :- e(x), c = count : { f(x, _) }.
never(x) :- f(x, _), e(x).
""")
    rel = run(prog, {"e": [(1,), (2,)]}, engine="embedded", relations="all").relations
    assert rel["n"] == {(0,)}
    assert rel["per"] == {(1, 0), (2, 0)}
    assert rel["never"] == set()


def test_negation_of_a_relation_left_empty():
    """A relation whose every rule is left out is empty: its negation holds."""
    prog = Program.from_text("""
.decl e(x: number)
.input e
.decl g(x: number)
.input g
.decl h(x: number)
.decl p(x: number)
.output p
h(x) :- g(x).
p(x) :- e(x), !h(x).
""")
    assert run(prog, {"e": [(3,)]}, engine="embedded", relations=["p"]).relations["p"] == {(3,)}
    assert run(prog, {"e": [(3,)], "g": [(3,)]}, engine="embedded",
               relations=["p"]).relations["p"] == set()


@pytest.mark.parametrize("name", ["torch/mlp.mlir", "seeds/slice_update.mlir",
                                  "torch/while_loop.mlir"])
def test_each_relation_alone_equals_the_whole_run(name):
    """On a real module's facts, asking for a few relations gives exactly their tuples in
    a run that asks for every relation (which keeps every rule that can fire)."""
    path = CORPUS / name
    module = api.parse(path.read_text(), str(path))
    prog = load(RULES_FILE, None)
    rows = validated(prog, {**export(module).rows, **OneShotOptions().rule_facts()})
    everything = run(prog, rows, engine="embedded", relations="all").relations
    for rels in (["raw"], ["value_read", "use_write"], ["value_def"], ["anc", "tuse", "use_alias"],
                 ["unsupported_op"]):
        alone = run(prog, rows, engine="embedded", relations=rels).relations
        for r in rels:
            assert alone[r] == everything[r], r
    assert everything["value_read"] and everything["value_def"] and everything["use_alias"]


def test_fewer_rules_for_a_small_module():
    """The point of it: a module without loops, calls or slices grounds far fewer rules."""
    path = CORPUS / "seeds/raw_conflict.mlir"
    prog = load(RULES_FILE, None)
    rows = validated(prog, {**export(api.parse(path.read_text(), str(path))).rows,
                            **OneShotOptions().rule_facts()})
    tr = _translation(prog)
    present = frozenset(r for r, v in rows.items() if v)
    _, kept, _ = tr.relevant(present, frozenset(["value_read"]))
    assert 0 < len(kept) < len(prog.rules) // 2
