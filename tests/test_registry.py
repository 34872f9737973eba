"""The registry of op models (backend/ops): one place per op for its facts and rewrite.

* the fact tables the rules read are the registry's, as generated now (a model changed
  without regenerating fails here);
* every fact a model declares is a row of a relation declared in rules/ops.dl or
  rules/ops_memref.dl, with the right arity and column types (the generator checks; a
  wrong fact is shown to fail).
"""

from __future__ import annotations

import pytest
from bufferlog.backend import ops
from bufferlog.backend.ops import gen

from bufferlog.core import rules_dir


def test_generated_tables_are_up_to_date():
    assert gen.stale() == [], "run: python -m bufferlog.backend.ops.gen"


def test_a_stale_table_is_found(tmp_path):
    for name, text in gen.tables().items():
        (tmp_path / name).write_text(text)
    for name in ("ops.dl", "ops_memref.dl"):
        (tmp_path / name).write_text((rules_dir() / name).read_text())
    assert gen.stale(tmp_path) == []
    (tmp_path / "ops_generated.dl").write_text(gen.tables()["ops_generated.dl"] + 'sem_known("x.y").\n')
    assert gen.stale(tmp_path) == ["ops_generated.dl"]


@pytest.mark.parametrize("fact,message", [
    (ops.sem.no_such_relation(0), "not declared"),
    (ops.sem.read(0, 1), "columns"),
    (ops.sem.read("0"), "is a number"),
    (ops.mem.view("0"), "is a number"),
])
def test_a_wrong_fact_is_refused(fact, message, monkeypatch):
    m = ops.model("cf.br")
    monkeypatch.setattr(m, "facts", (*m.facts, fact))
    with pytest.raises(gen.GenError, match=message):
        gen.tables()


def test_every_model_is_of_its_family():
    for m in ops.all_models():
        assert ops.FAMILIES[m.name.split(".", 1)[0]] == m.family


def test_every_structured_op_has_a_model_and_only_those():
    """The frontend's structured linalg ops (its op definitions) and the registry's
    destination-style linalg models name the same ops."""
    from bufferlog.backend.ops import linalg
    from bufferlog.frontend.dialects.linalg import NAMED_OPS, is_structured
    from bufferlog.frontend.ir import Op

    structured = {n for n in {*NAMED_OPS, "linalg.generic", "linalg.transpose", "linalg.broadcast",
                              "linalg.map", "linalg.reduce"} if is_structured(Op(n))}
    dps = {m.name for m in ops.all_models() if m.rewrite is linalg.dps}
    assert structured == dps
    for n in dps:
        assert ops.facts_of(n, "sem_dps") or ops.facts_of(n, "sem_elementwise"), n
