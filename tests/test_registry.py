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


#: backend files whose op knowledge has not moved to the registry yet (the placement
#: stages, whose decisions move to rules/placement.dl); drop a file here once it asks the
#: registry and the relations instead
NOT_YET = {"plan_stack.py", "plan_hoist.py", "plan_outparams.py", "plan_place.py"}


def _op_name_literals(path) -> list[tuple[int, str]]:
    """String literals of ``path`` that are op names of a dialect bufferlog knows (the
    namespaces of the registry and of the frontend's printers)."""
    import io
    import re
    import tokenize

    from bufferlog.frontend.dialects import PRINTERS, load_all

    load_all()
    spaces = set(ops.FAMILIES) | {n.split(".", 1)[0] for n in PRINTERS}
    name = re.compile(r"^([a-z_]+)\.[a-z_][a-z_0-9.]*$")
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type != tokenize.STRING:
            continue
        body = tok.string.lstrip("rbfuRBFU")
        text = body[3:-3] if body[:3] in ('"""', "'''") else body[1:-1]
        m = name.match(text)
        if m and m.group(1) in spaces:
            out.append((tok.start[0], text))
    return out


def test_no_op_name_in_the_backend_outside_the_registry():
    """The backend dispatches through the registry and asks relations, never op names:
    no string literal naming an op in backend/ outside backend/ops/ (the grep of the
    issue: ``grep -rn '"[a-z_]*\\.[a-z_]*"' backend/``, op names only)."""
    from pathlib import Path

    import bufferlog.backend as backend

    root = Path(backend.__file__).parent
    found = [f"{p.name}:{line}: {text}" for p in sorted(root.glob("*.py")) if p.name not in NOT_YET
             for line, text in _op_name_literals(p)]
    assert found == []


def test_the_op_name_check_bites(tmp_path):
    p = tmp_path / "x.py"
    p.write_text('a = "memref.alloc"\nb = "validate.dl"\nc = f"{x}.y"\nd = \'scf.for\'\n')
    assert [t for _, t in _op_name_literals(p)] == ["memref.alloc", "scf.for"]


def test_the_frontend_reads_the_registry_table_not_the_registry():
    """frontend/facts.py asks the generated table (frontend/op_table.py), and a frontend
    run imports nothing of the backend."""
    import subprocess
    import sys

    probe = ("import sys\nfrom bufferlog.frontend.parser import parse\n"
             "from bufferlog.frontend.facts import export\n"
             "export(parse('func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {\\n"
             "  return %t : tensor<4xf32>\\n}\\n', 'f'))\n"
             "print(sorted(m for m in sys.modules if m.startswith('bufferlog.backend')))\n")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
