"""`bufferlog explain`: the conflict of an out-of-place operand from rules/explain.dl
(the analysis with the decisions as facts) with the engine's proof tree; why-not
for in-place operands; the rules' own conflict re-check on the corpus; parity of the
named definition / write / read with mlir-opt's ``C_n[DEF|CONFL-WRITE|READ]`` tags."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bufferlog.engine import explain as engine_explain
from bufferlog.engine import parse_tuple, run
from bufferlog.engine.dl_parse import (
    Aggregate,
    Atom,
    BinOp,
    Comparison,
    Negation,
    Num,
    Str,
    Var,
    Wildcard,
)
from bufferlog.engine.explanation import explain, model_inputs
from bufferlog.engine.oneshot import analyze_module
from bufferlog.frontend.parser import parse
from conftest import CORPUS_FILES, REPO, shared_dir

from bufferlog.core import UserError

T = "tensor<8xf32>"
SRC = f"""func.func @f(%t: {T}, %v: f32, %i: index) -> ({T}, f32) {{
  %a = tensor.insert %v into %t[%i] : {T}
  %x = tensor.extract %t[%i] : {T}
  return %a, %x : {T}, f32
}}
"""
PROGRAMS = {
    "insert_then_extract": SRC,
    "seed_raw_conflict": (shared_dir() / "corpus" / "seeds" / "raw_conflict.mlir"),
    "fill_then_read": f"""func.func @f(%t: {T}, %v: f32) -> ({T}, {T}) {{
  %a = linalg.fill ins(%v : f32) outs(%t : {T}) -> {T}
  %b = linalg.copy ins(%t : {T}) outs(%a : {T}) -> {T}
  return %a, %b : {T}, {T}
}}
""",
    "loop_reads_init": f"""func.func @f(%t: {T}, %f: f32, %n: index) -> ({T}, f32) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%x = %t) -> {T} {{
    %y = tensor.insert %f into %x[%k] : {T}
    scf.yield %y : {T}
  }}
  %e = tensor.extract %t[%c0] : {T}
  return %r, %e : {T}, f32
}}
""",
}
MLIR_OPT = shutil.which("mlir-opt-22")
TAG = re.compile(r"C_(\d+)\[(DEF|CONFL-WRITE|READ): ([^\]]*)\]")


def text_of(src) -> str:
    return src.read_text() if isinstance(src, Path) else src


def analyze(text: str, strategy: str = "oneshot"):
    m = parse(text, "x.mlir")
    m.source_lines = text.splitlines()
    return analyze_module(m, strategy, engine="embedded")


def run_explain(target, src=SRC, **kw):
    facts, an, dec = analyze(text_of(src))
    return explain(facts, an, dec, target, engine="embedded", **{"proof": True, **kw})


# ---------------------------------------------------------------- basics


def test_out_of_place_triple():
    e = run_explain("2")["ops"][0]
    op = e["operands"][0]
    assert e["op"] == "tensor.insert" and op["operand"] == 1 and not op["inplace"]
    assert op["definition"]["value"] == "bbArg 0"
    assert op["conflicting_write"]["loc"] == "x.mlir:2:3"
    assert op["read"]["loc"] == "x.mlir:3:3" and op["read"]["op"] == "tensor.extract"
    assert op["read"]["text"] == "%x = tensor.extract %t[%i] : tensor<8xf32>"  # real source line
    assert op["query"].startswith("conflict_if_inplace(") and op["proof"]["derived"]


def test_in_place_by_name_why_not():
    e = run_explain("%x")["ops"][0]
    op = e["operands"][0]
    assert e["op"] == "tensor.extract" and op["inplace"]
    (w,) = op["why_not"]
    assert w["query"] == "would_conflict(3,0)" and w["derived"] is False
    assert len(w["rules"]) >= 2
    for r in w["rules"]:
        assert r["failed"]["literal"] and r["failed"]["line"] > 0
        assert r["rule"]["file"].endswith("explain.dl")


def test_in_place_exemption_proof():
    src = f"""func.func @f(%t: {T}, %v: f32, %i: index) -> ({T}, f32) {{
  %x = tensor.extract %t[%i] : {T}
  %a = tensor.insert %v into %t[%i] : {T}
  return %a, %x : {T}, f32
}}
"""
    # the extract reads %t before the insert writes it: the rules never pair them (a read
    # is examined only if it may run after the write); the insert's own read of its
    # destination is examined and cleared (the same use)
    op = run_explain("3", src)["ops"][0]["operands"][0]
    assert op["inplace"] and op["pairs_checked"] >= 1
    p = op["pairs"][0]
    assert p["read"] == {**p["write"], "operand": 1} and p["write"]["op"] == "tensor.insert"
    assert p["why_not"]["derived"] is False
    assert any("raw(" in r["failed"]["literal"] for r in p["why_not"]["rules"])
    assert p["exemption"]["query"].startswith("exempt(") and p["exemption"]["derived"]


def test_json_shape_stable():
    res = run_explain("2")
    # one operand copied because of a conflict; the rules' re-check of the decisions is empty
    assert set(res) == {"engine", "conflicts", "certificate_conflicts", "ops"}
    assert res["conflicts"] == 1 and res["certificate_conflicts"] == 0
    (e,) = res["ops"]
    assert set(e) == {"loc", "op", "text", "operands"}
    (op,) = e["operands"]
    assert set(op) == {"operand", "syntax", "inplace", "reason", "definition", "conflicting_write", "read",
                       "query", "shown_query", "other_conflicts", "conflict", "proof"}
    assert set(op["definition"]) == {"value", "loc", "op", "text"}
    assert set(op["read"]) == {"operand", "loc", "op", "text"}
    assert set(op["proof"]) >= {"query", "engine", "derived", "proof"}
    # without --proof: the same answer, no engine proof
    short = run_explain("2", proof=False)["ops"][0]["operands"][0]
    assert "proof" not in short and short["reason"] == op["reason"]
    assert short["definition"] == op["definition"]


def test_counts_agree_with_text():
    """The JSON's ``conflicts`` is the number of operands the text shows copied for a
    conflict, over every op of a program with copies and in-place operands."""
    from bufferlog.engine.explanation import render

    text = PROGRAMS["fill_then_read"]
    facts, an, dec = analyze(text_of(text))
    for line in sorted({an.loc[o][1] for o in an.op_tuses if an.name[o] != "func.func"}):
        res = explain(facts, an, dec, str(line), engine="embedded")
        shown = render(res)
        copied = sum("OUT OF PLACE" in ln and ("conflict" in ln or "read-only" in ln)
                     for ln in shown.splitlines())
        assert res["conflicts"] == copied, shown
        assert res["certificate_conflicts"] == 0


@pytest.mark.parametrize("target,loc", [("7", "x.mlir:7:1"), ("%nope", "x.mlir:1:1"),
                                        ("%t", "x.mlir:1:14"), ("1", "x.mlir:1:1")])
def test_op_naming_nothing_is_located(target, loc):
    with pytest.raises(UserError) as ei:
        run_explain(target, source_lines=SRC.splitlines())
    assert str(ei.value).startswith(f"{loc}: error:")


def test_cli_text_and_json(tmp_path):
    f = tmp_path / "x.mlir"
    f.write_text(SRC)
    cmd = [sys.executable, "-m", "bufferlog.cli", "explain", str(f), "--op", "2", "--engine", "embedded"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert "OUT OF PLACE" in out and "proof of" not in out  # the short answer
    assert f"read: {f}:3:3: operand #0 of %x = tensor.extract" in out
    out = subprocess.run(cmd + ["--proof"], capture_output=True, text=True, check=True, cwd=REPO).stdout
    # the proof shows ids as the input's names: the insert %a, its operand %t, the read %x
    assert "proof of conflict_if_inplace(%a,1,%x,0,%a,1,%t)" in out
    assert "site-packages" not in out and "rules/explain.dl:" in out
    p = subprocess.run(cmd[:-4] + ["--op", "9"], capture_output=True, text=True, cwd=REPO)
    assert p.returncode == 1 and f"{f}:9:1: error:" in p.stderr


# ---------------------------------------------------------------- proof structure


def _rule(prog, rid: str):
    (r,) = [r for r in prog.rules if f"{r.head.rel}.{r.rid}" == rid]
    return r


def _unify(args, vals, b: dict, deferred: list) -> bool:
    """Bind variables of ``args`` to ``vals``; arithmetic arguments are checked later
    (``deferred``), once the body has bound their variables."""
    for a, v in zip(args, vals, strict=True):
        if isinstance(a, Var):
            if b.setdefault(a.name, v) != v:
                return False
        elif isinstance(a, Num | Str):
            if a.value != v:
                return False
        elif isinstance(a, BinOp):
            deferred.append((a, v))
        elif not isinstance(a, Wildcard):
            return False
    return True


def _term(t, b, model=None):
    if isinstance(t, BinOp):
        x, y = _term(t.left, b, model), _term(t.right, b, model)
        if t.op in "/%":
            q = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)  # C semantics
            return q if t.op == "/" else x - y * q
        return {"+": x + y, "-": x - y, "*": x * y}[t.op]
    if isinstance(t, Aggregate):
        sols = list(_solve(t.body, b, model))
        if t.kind == "count":
            return len(sols)
        vals = [_term(t.target, s, model) for s in sols]
        return sum(vals) if t.kind == "sum" else (min if t.kind == "min" else max)(vals)
    return b[t.name] if isinstance(t, Var) else t.value


def _solve(body, b, model):
    """Every extension of ``b`` satisfying the aggregate body ``body`` (atoms and
    comparisons only), by scanning the model: slow, simple and independent of the engine."""
    if not body:
        yield b
        return
    lit, rest = body[0], body[1:]
    if isinstance(lit, Atom):
        for vals in model[lit.rel]:
            b2, deferred = dict(b), []
            if _unify(lit.args, vals, b2, deferred) and all(
                    _term(a, b2, model) == v for a, v in deferred):
                yield from _solve(rest, b2, model)
        return
    assert isinstance(lit, Comparison), lit
    if lit.op == "=" and isinstance(lit.left, Var) and lit.left.name not in b:
        yield from _solve(rest, {**b, lit.left.name: _term(lit.right, b, model)}, model)
        return
    ops = {"=": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
           "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}
    if ops[lit.op](_term(lit.left, b, model), _term(lit.right, b, model)):
        yield from _solve(rest, b, model)


def check_node(n: dict, facts: set, model: dict, prog) -> int:
    """Validate a proof node; return the number of rule nodes below it."""
    if n.get("fact"):
        rel, vals = parse_tuple(n["tuple"])
        assert (rel, vals) in facts, n["tuple"]
        return 0
    assert not n.get("truncated"), "depth too small for this check"
    rel, vals = parse_tuple(n["tuple"])
    assert vals in model[rel], n["tuple"]
    r = _rule(prog, n["rule"]["id"])
    assert r.text == n["rule"]["text"]
    b: dict = {}
    deferred: list = []
    assert _unify(r.head.args, vals, b, deferred)
    lits = [x for x in r.body if not isinstance(x, Comparison)]
    assert len(lits) == len(n["premises"])
    count = 1
    for lit, p in zip(lits, n["premises"], strict=True):
        if isinstance(lit, Negation):
            assert p.get("negated")
            prel, pvals = parse_tuple(re.sub(r"(?<=[(,])_(?=[,)])", "0", p["tuple"][1:]))
            assert prel == lit.atom.rel
            bound = [(a, v) for a, v in zip(lit.atom.args, pvals, strict=True) if not isinstance(a, Wildcard)]
            assert _unify([a for a, _ in bound], [v for _, v in bound], b, deferred)
            if not any(isinstance(a, Wildcard) for a in lit.atom.args):
                assert pvals not in model[prel], p["tuple"]
        else:
            assert isinstance(lit, Atom)
            prel, pvals = parse_tuple(p["tuple"])
            assert prel == lit.rel and _unify(lit.args, pvals, b, deferred), (lit, p["tuple"])
            count += check_node(p, facts, model, prog)
    ops = {"=": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
           "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}
    for c in (x for x in r.body if isinstance(x, Comparison)):
        if c.op == "=" and isinstance(c.left, Var) and c.left.name not in b:
            b[c.left.name] = _term(c.right, b, model)
        assert ops[c.op](_term(c.left, b, model), _term(c.right, b, model)), (r.text, c, b)
    for a, v in deferred:
        assert _term(a, b, model) == v, (r.text, a, v)
    return count


@pytest.mark.parametrize("name", ["insert_then_extract", "seed_raw_conflict"])
def test_proof_tree_is_valid(name):
    facts, an, dec = analyze(text_of(PROGRAMS[name]))
    prog, fs = model_inputs(facts, an)
    model = run(prog, fs, engine="embedded", relations="all").relations
    inputs = {(rel, tuple(t)) for rel, rows in fs.items() for t in rows}
    inputs |= {(r.head.rel, tuple(a.value for a in r.head.args)) for r in prog.rules if r.is_fact}
    (u,) = [u for u, ip in dec.inplace.items() if not ip]
    (t,) = [t for t in model["conflict_if_inplace"] if t[:2] == u]
    res = engine_explain(prog, fs, f"conflict_if_inplace({','.join(map(str, t))})", depth=60,
                         engine="embedded")
    assert res["derived"] and check_node(res["proof"], inputs, model, prog) > 10


# ---------------------------------------------------------------- oracle parity


def mlir_opt_conflicts(text: str) -> dict[int, dict]:
    """C_n tags of mlir-opt's print-conflicts output: n -> {DEF, CONFL-WRITE, READ: (op#, what)}."""
    p = subprocess.run([MLIR_OPT, "--one-shot-bufferize=bufferize-function-boundaries "
                        "test-analysis-only print-conflicts allow-return-allocs-from-loops"],
                       input=text, capture_output=True, text=True, check=True)
    out: dict[int, dict] = {}
    for k, op in enumerate(parse(p.stdout, "<mlir-opt>").walk()):
        for key in op.attrs:
            m = TAG.fullmatch(key)
            if m:
                out.setdefault(int(m.group(1)), {})[m.group(2)] = (k, m.group(3))
    return out


@pytest.mark.oracle
@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_triple_matches_mlir_opt_tags(name):
    text = text_of(PROGRAMS[name])
    tags = mlir_opt_conflicts(text)
    facts, an, dec = analyze(text)
    ours = []
    for line in sorted({an.loc[o][1] for o in an.op_tuses if an.name[o] != "func.func"}):
        for e in explain(facts, an, dec, str(line), engine="embedded")["ops"]:
            ours += [it for it in e["operands"] if not it["inplace"] and "read" in it]
    assert tags and len(ours) == len(tags)
    loc = {o: f"x.mlir:{ln}:{c}" for o, (_, ln, c) in an.loc.items()}
    want = sorted((loc[t["DEF"][0]], t["DEF"][1], loc[t["CONFL-WRITE"][0]], t["CONFL-WRITE"][1],
                   loc[t["READ"][0]], t["READ"][1]) for t in tags.values())
    got = sorted((it["definition"]["loc"], it["definition"]["value"], it["conflicting_write"]["loc"],
                  str(it["conflicting_write"]["operand"]), it["read"]["loc"], str(it["read"]["operand"]))
                 for it in ours)
    assert got == want


# ---------------------------------------------------------------- the rules' re-check


def model(facts, an) -> dict:
    prog, dl_facts = model_inputs(facts, an)
    return run(prog, dl_facts, engine="embedded", relations="all").relations


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_corpus_conflict_relation_empty(path):
    facts, an, dec = analyze(path.read_text())
    rel = model(facts, an)
    assert rel["conflict"] == set() and rel["nonwritable_written"] == set()
    oop = {u for u, ip in dec.inplace.items() if not ip}
    assert {(o, i) for o, i in rel["would_conflict"]} == oop  # every copy is explained
    for u, c in dec.conflicts.items():  # and the rules find the decision procedure's conflict
        if c.kind == "raw":
            assert u + c.read + c.write + (c.definition,) in rel["conflict_if_inplace"]
        else:
            assert u + (c.definition,) in rel["nonwritable_if_inplace"]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_optimal_conflict_relation_empty(name):
    facts, an, dec = analyze(text_of(PROGRAMS[name]), "optimal")
    rel = model(facts, an)
    assert rel["conflict"] == set() and rel["nonwritable_written"] == set()


@pytest.mark.souffle
@pytest.mark.skipif(shutil.which("souffle") is None, reason="souffle not installed")
def test_souffle_same_explanation():
    a = run_explain("2")["ops"][0]["operands"][0]
    facts, an, dec = analyze(SRC)
    b = explain(facts, an, dec, "2", engine="souffle")["ops"][0]["operands"][0]
    assert b["query"] == a["query"] and b["proof"]["derived"]
