"""The runs for the layers after the first are scoped to their functions
(engine/oneshot.py ``SCOPED``, engine/scope.py): they see their decided callees only
through what the callees' summaries read (rules/schema.dl `decided_arg`,
`decided_return`, `decided_write`). The analysis must be the one the runs on the whole
module give, to the last read, alias and decision; and where what a scoped run is given
of a callee is wrong, the certificate run, which derives the summaries from the whole
module, must refuse the decisions."""

from __future__ import annotations

from pathlib import Path

import pytest
from bufferlog.engine import certify, decisions, oneshot
from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.engine.scope import FactScope
from bufferlog.frontend.facts import export
from bufferlog.frontend.parser import parse

from bufferlog.core import CertificateError

HERE = Path(__file__).parent / "scoped"
PROGRAMS = sorted(HERE.glob("*.mlir"))


def analysis(path: Path, scoped: bool, monkeypatch) -> tuple[dict, int]:
    """What the analysis derived and decided, and how many scoped runs it made."""
    monkeypatch.setattr(oneshot, "SCOPED", scoped)
    runs = []
    orig = oneshot.Session.run

    def run(self, *args, **kw):
        runs.append(kw.get("scoped", False))
        return orig(self, *args, **kw)

    monkeypatch.setattr(oneshot.Session, "run", run)
    _, an, dec = analyze_module(parse(path.read_text(), str(path)), engine="embedded")
    monkeypatch.setattr(oneshot.Session, "run", orig)
    got = {
        "annotations": operand_annotations(an, dec),
        "inplace": dec.inplace, "conflicts": dec.conflicts, "order": dec.order,
        "access": dec.access, "equivalent_args": dec.equivalent_args,
        "reads": an.reads, "read_via_alias": an.read_via_alias, "value_read": an.value_read,
        "not_writable": an.not_writable, "writes": an.writes,
        "aliases": {u: a for u, a in an.aliases.items() if a},
        "rev_alias": {v: a for v, a in an.rev_alias.items() if a},
        "final": {k: v for k, v in an.final.relations.items() if k != "scoped_call_differs"},
    }
    return got, sum(runs)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_scoped_runs_decide_as_whole_module_runs(path, monkeypatch):
    scoped, n = analysis(path, True, monkeypatch)
    whole, m = analysis(path, False, monkeypatch)
    assert n >= 1 and m == 0  # the program has layers after the first
    for key in whole:
        assert scoped[key] == whole[key], key


def test_programs_cover_deep_layers():
    from bufferlog.engine.oneshot import call_layers

    depth = [len(call_layers(export(parse(p.read_text(), str(p))).rows)) for p in PROGRAMS]
    assert max(depth) >= 4 and sum(d >= 3 for d in depth) >= 3


@pytest.mark.parametrize("drop", ["decided_write", "decided_return", "decided_arg"])
def test_certificate_refuses_a_lost_callee_summary(drop, monkeypatch):
    """A scoped run given less of a callee than its summary reads derives other call
    semantics (no write, no alias through the call): the certificate says so."""
    orig = decisions.callee_rows

    def lossy(g, f):
        rows = orig(g, f)
        rows[drop] = []
        return rows

    found: list[str] = []
    orig_problems = certify.problems

    def problems(view, rel):
        found.extend(orig_problems(view, rel))
        return found

    monkeypatch.setattr(decisions, "callee_rows", lossy)
    monkeypatch.setattr(certify, "problems", problems)
    text = (HERE / "three_layers.mlir").read_text()
    with pytest.raises(CertificateError):
        analyze_module(parse(text, "three_layers.mlir"), engine="embedded")
    assert any(p.startswith("call summary differs") for p in found), found


def test_fact_scope_partitions_the_facts():
    """Every row is the module's or one function body's; the bodies and the module give
    back every row, and no function's facts name another function's ops."""
    text = (HERE / "four_layers_forall.mlir").read_text()
    rows = export(parse(text, "four_layers_forall.mlir")).rows
    scope = FactScope(rows)
    bodies = [f for f, _, _, decl in rows["func"] if not decl]
    everything = scope.facts(bodies)
    for rel, rs in rows.items():
        assert sorted(everything[rel]) == sorted(rs), rel
    module = scope.facts([])
    for f in bodies:
        own = scope.facts([f])
        ops = {o for o, *_ in own["op"]} - {o for o, *_ in module["op"]}
        span = dict(rows["op_span"])[f]
        assert ops == {o for o, *_ in rows["op"] if f < o <= span}
        assert {o for o, *_ in own["operand"]} <= ops | {o for o, *_ in module["op"]}
