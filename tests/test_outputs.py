"""The typed output interface (engine/outputs.py, generated from rules/interface.dl and the
relations' declarations): one accessor per derived relation with named fields, the layer,
final and scope lists derived from it, and no relation read by a string in engine/ or
backend/."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

import pytest
from bufferlog.engine import gen_outputs, outputs
from bufferlog.engine.oneshot import FINAL_RELATIONS, LAYER_RELATIONS
from bufferlog.engine.program import Program
from bufferlog.engine.view import SCOPED_KEYS

from bufferlog.core import InternalError, rules_dir

REPO = Path(__file__).resolve().parent.parent


def test_generated_interface_is_up_to_date():
    assert not gen_outputs.stale(), "run: python -m bufferlog.engine.gen_outputs"


def test_every_interface_relation_has_an_accessor_with_the_decl_columns():
    for program, rels in outputs.ENTRIES.items():
        cls = next(c for c in vars(outputs).values()
                   if isinstance(c, type) and getattr(c, "PROGRAM", None) == program)
        prog = Program.load(rules_dir() / program)
        assert set(cls.RELATIONS) == set(rels)
        for rel, (arity, _line) in rels.items():
            acc = getattr(cls, rel)
            assert acc.name == rel and len(acc.fields) == arity
            assert list(acc.fields) == [n for n, _ in prog.decls[rel].attrs]


def test_rows_have_named_fields_and_compare_as_tuples():
    out = outputs.AnalysisOutputs({"raw": {(1, 0, 2, 1, 7, 0, 0)}, "tuse": set()})
    (row,) = out.raw
    assert (row.ro, row.ri, row.wo, row.wi, row.d) == (1, 0, 2, 1, 7)
    assert row == (1, 0, 2, 1, 7, 0, 0) and (1, 0, 2, 1, 7, 0, 0) in out.raw
    assert out.raw is out.raw  # made once
    assert out.tuse == frozenset()
    with pytest.raises(InternalError, match="'tusee'"):
        out.rows("tusee")


def test_layer_final_and_scope_lists_come_from_the_interface():
    a = outputs.AnalysisOutputs
    assert LAYER_RELATIONS == a.LAYER and FINAL_RELATIONS == a.FINAL and SCOPED_KEYS is a.SCOPE
    assert set(a.SCOPE) == set(a.LAYER)
    assert set(a.LAYER) <= set(a.RELATIONS) and set(a.FINAL) <= set(a.RELATIONS)
    text = (rules_dir() / "interface.dl").read_text()
    assert 'layer_output("raw", "run").' in text and a.SCOPE["raw"] is None


def test_a_wrong_interface_is_refused(tmp_path):
    for p in rules_dir().glob("*.dl"):
        (tmp_path / p.name).write_text(p.read_text())
    for sub in ("analysis", "validate"):
        (tmp_path / sub).mkdir()
        for p in (rules_dir() / sub).glob("*.dl"):
            (tmp_path / sub / p.name).write_text(p.read_text())
    text = (tmp_path / "interface.dl").read_text()
    (tmp_path / "interface.dl").write_text(text.replace('interface("analysis.dl", "raw", 7).',
                                                        'interface("analysis.dl", "raw", 6).'))
    with pytest.raises(gen_outputs.GenError, match="'raw' has 7 columns"):
        gen_outputs.generate(tmp_path)
    (tmp_path / "interface.dl").write_text(text + 'layer_output("tensor", "op").\n')
    with pytest.raises(gen_outputs.GenError, match="layer_output"):
        gen_outputs.generate(tmp_path)


#: string literals that spell a relation's name but read no relation: the conflict kinds
#: (spelt once, where they are defined) and a JSON key of explain's answers
NOT_READS = {("engine/greedy.py", "raw"), ("engine/greedy.py", "not_writable"),
             ("engine/explanation.py", "conflict")}
#: files whose relation reads have not moved to the typed accessors yet: the placement
#: stages (their decisions move to rules/placement.dl)
NOT_YET = {"backend/plan_place.py"}


def test_no_relation_is_read_by_a_string():
    names = {r for rels in outputs.ENTRIES.values() for r in rels}
    found = []
    for d in ("engine", "backend", "backend/ops"):
        for p in sorted((REPO / d).glob("*.py")):
            rel = f"{d}/{p.name}"
            if p.name in ("outputs.py", "gen_outputs.py") or rel in NOT_YET:
                continue
            for tok in tokenize.generate_tokens(io.StringIO(p.read_text()).readline):
                if tok.type == tokenize.STRING:
                    text = tok.string.strip("'\"")
                    if text in names and (rel, text) not in NOT_READS:
                        found.append(f"{rel}:{tok.start[0]}: {text}")
    assert found == []
