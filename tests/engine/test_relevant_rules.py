"""The embedded engine gives clingo only the rules that can matter for a run
(``Translation.relevant``): rules that cannot fire on the run's facts (judged on the
values each column may hold), and rules that reach no asked-for relation, are left out.
Leaving them out must change no tuple of an asked-for relation: every run is compared
here with clingo on the whole program."""

from __future__ import annotations

import clingo
import pytest
from bufferlog.engine import embedded
from bufferlog.engine.embedded import _args, _translation
from bufferlog.engine.facts_io import validated
from bufferlog.engine.interface import load
from bufferlog.engine.multishot import SharedRuns
from bufferlog.engine.oneshot import RULES_FILE
from bufferlog.engine.options import OneShotOptions
from bufferlog.engine.program import Program
from bufferlog.engine.run import run
from bufferlog.frontend.facts import export

from bufferlog import api

try:
    from tests.gen_programs import generate
    from tests.oracle import shared_dir
except ImportError:  # tests/ on sys.path (rootdir-relative imports)
    from gen_programs import generate
    from oracle import shared_dir

CORPUS = shared_dir() / "corpus"


def unpruned(prog: Program, facts: dict, relations: list[str]) -> dict[str, set]:
    """Every rule and every fact given to clingo, through the clingo package's own Python
    API (not the engine's C calls, engine/clingo_api.py): the reference."""
    tr = _translation(prog)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], tr.text())
    ctl.add("base", [], tr.fact_text({r: v for r, v in facts.items() if r in tr.pred}))
    ctl.ground([("base", [])])
    out: dict[str, set] = {r: set() for r in relations}
    by_pred = {tr.pred[r]: out[r] for r in relations}
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            for text in map(str, model.symbols(shown=True)):
                name = text.split("(", 1)[0]
                if name in by_pred:
                    by_pred[name].add(_args(text))
            break
    return out


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


VALUES = """
.decl op(o: number, name: symbol)
.input op
.decl edge(a: number, b: number)
.input edge
.decl kind(name: symbol, k: number)
kind("add", 1).
kind("mul", -2).
.decl named(o: number, k: number)
.output named
named(o, k) :- op(o, n), kind(n, k).
.decl negative(o: number)
.output negative
negative(o) :- named(o, -2).
.decl loopy(o: number)
.output loopy
loopy(o) :- op(o, "loop").
.decl joined(a: number)
.output joined
joined(a) :- edge(a, b), op(b, _).
.decl reach(a: number, b: number)
.output reach
reach(a, b) :- edge(a, b).
reach(a, c) :- reach(a, b), edge(b, c).
.decl far(a: number)
.output far
far(a) :- reach(a, 9).
.decl not_named(o: number)
.output not_named
not_named(o) :- op(o, _), !named(o, _).
"""


@pytest.mark.parametrize("ops, edges", [
    ([(1, "add"), (2, "mul")], [(1, 2), (2, 3), (3, 9)]),
    ([(1, "sub"), (5, "loop")], [(7, 8)]),
    ([(1, "mul")], []),
    ([], [(1, 2)]),
    # columns past 64 values may hold anything: constants and joins there never prune
    ([(k, "add") for k in range(100)] + [(200, "loop")], [(k, k + 1) for k in range(100)]),
])
def test_column_values_decide_which_rules_fire(ops, edges):
    """Constants (symbols and negative numbers) that no column holds, joins whose columns
    share no value, recursion and negation of a relation whose rules were left out."""
    prog = Program.from_text(VALUES)
    facts = validated(prog, {"op": ops, "edge": edges})
    rels = [r for r in prog.decls if r not in ("op", "edge")]
    assert run(prog, facts, engine="embedded", relations=rels).relations == \
        unpruned(prog, facts, rels)


def test_rules_that_cannot_fire_are_left_out():
    prog = Program.from_text(VALUES)
    tr = _translation(prog)
    facts = validated(prog, {"op": [(1, "sub")], "edge": [(1, 2)]})
    kept, _ = tr.relevant(facts, frozenset(prog.decls))
    heads = {prog.rules[i].head.rel for i in kept}
    # kind(...) facts always; named/negative/loopy/far cannot fire ("sub" is no kind,
    # no op is "loop", nothing reaches 9); joined cannot: no op numbered 2
    assert heads == {"kind", "reach", "not_named"}


def _captured_runs(text: str, monkeypatch) -> list[tuple]:
    """Every embedded evaluation of a whole `bufferize` of ``text``: analysis layers,
    certificate and deallocation, alone or in a session's shared control
    (engine/multishot.py)."""
    runs: list[tuple] = []
    real, real_shared = embedded.evaluate, SharedRuns.evaluate

    def spy(prog, facts, relations):
        relations = list(relations)
        got = real(prog, facts, relations)
        runs.append((prog, facts, relations, got, False))
        return got

    def spy_shared(self, facts, relations):
        relations = list(relations)
        got = real_shared(self, facts, relations)
        runs.append((self.prog, facts, relations, got, True))
        return got

    monkeypatch.setattr(embedded, "evaluate", spy)
    monkeypatch.setattr(SharedRuns, "evaluate", spy_shared)
    api.bufferize(api.parse(text, "<test>"), engine="embedded")
    monkeypatch.undo()
    return runs


@pytest.mark.parametrize("source", [
    "torch/mlp.mlir", "torch/while_loop.mlir", "torch/attention_block.mlir",
    "seeds/slice_update.mlir", "seeds/tosa_boundary.mlir",
    "gen:3", "gen:7:forall,cf", "gen:11:dps", "gen:8:views",
])
def test_every_run_of_bufferize_equals_the_whole_program(source, monkeypatch):
    if source.startswith("gen:"):
        _, seed, *flags = source.split(":")
        on = set(flags[0].split(",")) if flags else set()
        text = generate(int(seed), 12, forall="forall" in on, cf="cf" in on,
                        dps="dps" in on, views="views" in on)
    else:
        text = (CORPUS / source).read_text()
    runs = _captured_runs(text, monkeypatch)
    assert len(runs) >= 3  # at least one layer, the certificate and deallocation
    assert sum(shared for *_, shared in runs) >= 2  # the first run and the certificate
    for prog, facts, relations, got, _ in runs:
        assert got == unpruned(prog, facts, relations)


def test_each_relation_alone_equals_the_whole_program():
    path = CORPUS / "torch/mlp.mlir"
    prog = load(RULES_FILE, None)
    rows = validated(prog, {**export(api.parse(path.read_text(), str(path))).rows,
                            **OneShotOptions().rule_facts()})
    everything = unpruned(prog, rows, list(prog.decls))
    assert everything["value_read"] and everything["value_def"] and everything["use_alias"]
    for rels in (["raw"], ["value_read", "use_write"], ["value_def"],
                 ["block_span", "tuse", "use_alias"], ["unsupported_op"], list(prog.decls)):
        alone = run(prog, rows, engine="embedded", relations=rels).relations
        assert alone == {r: everything[r] for r in rels}


def test_fewer_rules_for_a_small_module():
    """The point of it: a small module grounds well under half of the analysis rules."""
    path = CORPUS / "seeds/raw_conflict.mlir"
    prog = load(RULES_FILE, None)
    rows = validated(prog, {**export(api.parse(path.read_text(), str(path))).rows,
                            **OneShotOptions().rule_facts()})
    kept, _ = _translation(prog).relevant(rows, frozenset(["value_read"]))
    assert 0 < len(kept) < len(prog.rules) // 2
