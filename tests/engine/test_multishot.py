"""Runs sharing one clingo control (engine/multishot.py) give what each run alone gives:
the shared facts and the static relations' rules are grounded once, each run's own
facts and the relations depending on them are its own, and no run sees another's tuples.
"""

from __future__ import annotations

import pytest
from bufferlog.engine import clingo_api, embedded
from bufferlog.engine.facts_io import Validated, validated
from bufferlog.engine.multishot import SharedRuns, static_relations
from bufferlog.engine.program import Program

from bufferlog import api

PROGRAM = """
.decl op(o: number, name: symbol)
.input op
.decl edge(a: number, b: number)
.input edge
.decl chosen(o: number)
.input chosen
.decl weight(o: number, w: number)
.input weight

// static: read only op and edge
.decl named_add(o: number)
named_add(o) :- op(o, "add").
.decl reach(a: number, b: number)
reach(a, b) :- edge(a, b).
reach(a, c) :- reach(a, b), edge(b, c).
.decl sinks(n: number)
sinks(n) :- n = count : { op(o, _), !edge(o, _) }.

// dynamic: read chosen or weight, positively, negated or in an aggregate
.decl chosen_reach(a: number, b: number)
chosen_reach(a, b) :- chosen(a), reach(a, b).
.decl unchosen_add(o: number)
unchosen_add(o) :- named_add(o), !chosen(o).
.decl heavy(n: number)
heavy(n) :- n = sum w : { weight(_, w) }.
.decl via_dynamic(o: number)
via_dynamic(o) :- unchosen_add(o), reach(o, _).
"""

OUT = ["named_add", "reach", "sinks", "chosen_reach", "unchosen_add", "heavy", "via_dynamic"]
PER_RUN = ("chosen", "weight")


def _program() -> Program:
    prog = Program.from_text(PROGRAM)
    prog.require_valid()
    return prog


def _shared(prog: Program) -> dict[str, Validated]:
    return _own(prog, {"op": [(1, "add"), (2, "mul"), (3, "add"), (4, "add")],
                       "edge": [(1, 2), (2, 3), (3, 1), (4, 2)]})


def _own(prog: Program, rows: dict) -> dict[str, Validated]:
    """A run's own facts, validated (only the relations given)."""
    return {r: v for r, v in validated(prog, rows).items() if r in rows}


def test_static_relations_read_no_per_run_relation_at_any_depth():
    assert static_relations(embedded._translation(_program()), PER_RUN) == {"named_add", "reach", "sinks"}


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [3, 2, 1, 0], [1, 1, 0]])
def test_each_run_equals_the_run_alone(order, monkeypatch):
    prog = _program()
    rows = _shared(prog)
    per_run = [{"chosen": [(1,)], "weight": [(1, 5), (2, 7)]},
               {"chosen": [], "weight": []},
               {"chosen": [(3,), (4,)], "weight": [(4, -2)]},
               {"chosen": [(1,), (2,), (3,), (4,)], "weight": [(3, 1)]}]
    alone = []
    real = embedded.evaluate
    monkeypatch.setattr(embedded, "evaluate", lambda *a: alone.append(a) or real(*a))
    with SharedRuns(prog, rows, OUT) as shared:
        for k in order:
            facts = {**rows, **_own(prog, per_run[k])}
            got = shared.evaluate(facts, OUT)
            assert got == real(prog, {**rows, **_own(prog, per_run[k])}, OUT), k
        assert shared.runs == len(order)
    assert alone == []  # every run went through the shared control


def test_a_run_without_the_shared_rows_or_asking_more_runs_alone(monkeypatch):
    prog = _program()
    rows = _shared(prog)
    alone = []
    real = embedded.evaluate
    monkeypatch.setattr(embedded, "evaluate", lambda *a: alone.append(a) or real(*a))
    with SharedRuns(prog, rows, ["reach", "unchosen_add"]) as shared:
        other = {**rows, "edge": Validated([(1, 4)]), **_own(prog, {"chosen": [(4,)]})}
        assert shared.evaluate(other, ["reach", "unchosen_add"]) == \
            {"reach": {(1, 4)}, "unchosen_add": {(1,), (3,)}}
        facts = {**rows, **_own(prog, {"chosen": [(1,)]})}
        assert shared.evaluate(facts, ["via_dynamic"]) == {"via_dynamic": {(3,), (4,)}}
        assert len(alone) == 2 and shared.runs == 0
        assert shared.evaluate(facts, ["unchosen_add"]) == {"unchosen_add": {(3,), (4,)}}
        assert len(alone) == 2 and shared.runs == 1


def test_after_a_clingo_error_the_runs_go_alone(monkeypatch):
    prog = _program()
    rows = _shared(prog)
    real_ground = clingo_api.Control.ground

    def fail_once(self, part="base"):
        if part == "run1":
            raise RuntimeError("injected")
        return real_ground(self, part)

    monkeypatch.setattr(clingo_api.Control, "ground", fail_once)
    with SharedRuns(prog, rows, OUT) as shared:
        for chosen in ([(1,)], [(2,)]):
            facts = {**rows, **_own(prog, {"chosen": chosen})}
            assert shared.evaluate(facts, OUT) == embedded.evaluate(prog, facts, OUT)
        assert shared.broken and shared.ctl is None


def test_analysis_sessions_share_and_free_their_control(monkeypatch):
    """A module's first analysis run and its certificate go through one control, which
    is freed when the analysis ends, also when it fails."""
    made, freed = [], []
    real_init, real_exit = clingo_api.Control.__init__, clingo_api.Control.__exit__

    def init(self, args):
        made.append(self)
        real_init(self, args)

    def exit_(self, *exc):
        if self._ctl is not None:
            freed.append(self)
        real_exit(self, *exc)

    monkeypatch.setattr(clingo_api.Control, "__init__", init)
    monkeypatch.setattr(clingo_api.Control, "__exit__", exit_)
    runs = []
    real_eval = SharedRuns.evaluate
    monkeypatch.setattr(SharedRuns, "evaluate",
                        lambda self, f, r: runs.append(self.runs) or real_eval(self, f, r))
    text = """func.func @f(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r = tensor.insert %v into %t[%c0] : tensor<4xf32>
  %e = tensor.extract %t[%c0] : tensor<4xf32>
  %s = tensor.insert %e into %r[%c0] : tensor<4xf32>
  return %s : tensor<4xf32>
}
"""
    api.analyze(api.parse(text, "<test>"), engine="embedded")
    assert runs == [0, 1]  # the first run, then the certificate, in one control
    assert set(made) == set(freed)


EMPTY_STATIC = """
.decl edge(a: number, b: number)
.input edge
.decl chosen(o: number)
.input chosen
// static, and empty on the facts below although its columns may hold any value
.decl two_cycle(a: number)
two_cycle(a) :- edge(a, b), edge(b, a).
.decl chosen_on_cycle(a: number)
chosen_on_cycle(a) :- two_cycle(a), chosen(a).
.decl chosen_edge(a: number, b: number)
chosen_edge(a, b) :- chosen(a), edge(a, b).
"""


def test_a_static_relation_the_base_left_empty_prunes_its_readers(monkeypatch):
    """reach's column sets say `two_cycle` may hold tuples; the grounded base holds none,
    so the run is not given the rule reading it, and its answer is still the run alone's."""
    prog = Program.from_text(EMPTY_STATIC)
    prog.require_valid()
    rows = _own(prog, {"edge": [(1, 2), (2, 3), (3, 1)]})
    texts: list[str] = []
    real_add = clingo_api.Control.add_statements

    def add(self, lines, part="base"):
        if part == "run1":
            texts.extend(lines)
        real_add(self, lines, part)

    monkeypatch.setattr(clingo_api.Control, "add_statements", add)
    out = ["chosen_on_cycle", "chosen_edge"]
    with SharedRuns(prog, rows, out) as shared:
        facts = {**rows, **_own(prog, {"chosen": [(1,), (2,)]})}
        got = shared.evaluate(facts, out)
        assert shared.runs == 1
    assert got == embedded.evaluate(prog, facts, out) == \
        {"chosen_on_cycle": set(), "chosen_edge": {(1, 2), (2, 3)}}
    run_rules = "".join(texts)
    assert ":- p1_chosen(V_a), r_edge" in run_rules and "two_cycle" not in run_rules
