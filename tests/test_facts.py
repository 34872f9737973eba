"""Fact export: agreement with rules/schema.dl, independent counts from mlir-opt, source
locations, and the sanity rules (rules/sanity.dl) on every corpus file."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from bufferlog.engine import Program, run
from bufferlog.frontend.facts import Facts, FactsError, export, read_tsv
from bufferlog.frontend.parser import parse
from bufferlog.frontend.schema import Relation, load_schema
from conftest import CORPUS_FILES, REPO

SCHEMA = load_schema()
SANITY = Program.load(REPO / "rules" / "sanity.dl")


def facts_of(path: Path) -> Facts:
    return export(parse(path.read_text(), str(path)))


def test_schema_documents_every_input_relation():
    text = (REPO / "rules" / "schema.dl").read_text()
    assert len(SCHEMA) >= 25
    for name, rel in SCHEMA.items():
        assert rel.doc, f"{name} has no /** doc */ comment"
        assert f".input {name}" in text


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_tsv_matches_schema(path, tmp_path):
    f = facts_of(path)
    f.write_tsv(tmp_path)
    written = {p.stem for p in tmp_path.glob("*.facts")}
    assert written == set(SCHEMA), "one .facts file per schema relation, no more"
    for name, rel in SCHEMA.items():
        rows = list(read_tsv(tmp_path / f"{name}.facts", rel))
        assert rows == [tuple(r) for r in f.rows[name]]


def test_exporter_rejects_drift_from_schema():
    m = parse("func.func @f() {\n  return\n}\n", "t.mlir")
    schema = dict(SCHEMA)
    schema["op"] = Relation("op", SCHEMA["op"].columns[:3], "drifted")
    with pytest.raises(FactsError, match="arity"):
        Facts(m, schema)
    schema = dict(SCHEMA)
    del schema["op_loc"]
    with pytest.raises(FactsError, match="does not declare"):
        Facts(m, schema)


OP_LINE = re.compile(r'^\s*(?:%[\w.$#:, %]+=\s*)?(?:"[\w.]+"|[a-z_]+\.[\w.]+|return|call)\b')


def count_ops_in_mlir_opt_output(text: str) -> int:
    """Independent op count: lines of mlir-opt's custom-form output that start an op."""
    n = 0
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("module") or OP_LINE.match(line):
            n += 1
    return n


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_op_count_matches_mlir_opt(path, mlir_opt):
    out = subprocess.run([mlir_opt, str(path)], capture_output=True, text=True, check=True).stdout
    f = facts_of(path)
    # mlir-opt always prints the module op; our op 0 is the (possibly implicit) module.
    assert len(f.rows["op"]) == count_ops_in_mlir_opt_output(out)


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_locations_point_at_the_op(path):
    lines = path.read_text().splitlines()
    f = facts_of(path)
    names = {o: n for o, n, _, _ in f.rows["op"]}
    for o, file, line, col in f.rows["op_loc"]:
        if o == 0:
            continue
        assert file == str(path)
        text = lines[line - 1][col - 1:]
        short = names[o].split(".", 1)[1]
        # the op starts here: its result names or its own name
        assert text.startswith("%") or short in text or names[o] in text, (o, names[o], line, col)


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_sanity_rules_hold(path):
    res = run(SANITY, facts_of(path).rows, engine="embedded")
    assert res.relations["schema_invalid"] == set()


def test_sanity_rules_catch_broken_facts():
    f = facts_of(REPO / "examples" / "init_and_matmul.mlir")
    rows = {k: list(v) for k, v in f.rows.items()}
    used = {v for _, _, v in rows["operand"]}
    dropped = next(r for r in rows["result"] if r[0] in used)
    rows["result"].remove(dropped)
    rows["op_loc"] = rows["op_loc"][:-1]
    bad = run(SANITY, rows, engine="embedded").relations["schema_invalid"]
    assert ("operand value is neither a result nor a block argument", dropped[0]) in bad
    assert "op without a location" in {r for r, _ in bad}


def test_slice_facts_follow_static_and_dynamic_params():
    m = parse(
        "func.func @f(%t: tensor<?xf32>, %i: index, %n: index) -> tensor<?xf32> {\n"
        "  %s = tensor.extract_slice %t[%i] [%n] [2] : tensor<?xf32> to tensor<?xf32>\n"
        "  return %s : tensor<?xf32>\n}\n", "s.mlir")
    f = export(m)
    (o,) = [o for o, n, _, _ in f.rows["op"] if n == "tensor.extract_slice"]
    vid = {v.name: i for v, i in f.value_id.items()}
    assert set(f.rows["slice_dynamic"]) == {(o, "offset", 0, vid["i"]), (o, "size", 0, vid["n"])}
    assert set(f.rows["slice_static"]) == {(o, "stride", 0, 2)}
    assert (vid["t"], 4) not in f.rows["type_bytes"]
