"""Every alloc, copy, clone and free bufferlog adds names its cause (printed with
``--mlir-print-debuginfo`` as a named location), and ``explain FILE`` lists every copy
of the output with its cause, as many as ``bufferize --stats`` counts."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

REPO = Path(__file__).resolve().parent.parent
CORPUS = sorted((oracle.shared_dir() / "corpus").rglob("*.mlir")) + sorted((REPO / "examples").glob("*.mlir"))
ADDED = re.compile(r"\b(memref\.alloca?|memref\.copy|linalg\.copy|bufferization\.clone|memref\.dealloc|"
                   r"bufferization\.dealloc|memref\.realloc)\b")
NAMED_LOC = re.compile(r'loc\("(?:[^"\\]|\\.)*"\(')
PLAIN_LOC = re.compile(r'loc\("(?:[^"\\]|\\.)*":(\d+):\d+\)')


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bufferlog", *args], capture_output=True,
                          text=True, cwd=REPO)


def uncaused(path: Path, *flags: str) -> list[str]:
    """The lines of ``path``'s bufferized output that add memory traffic without a
    cause: an op bufferlog made (the input line it points at does not write it)."""
    r = cli("bufferize", str(path), "--mlir-print-debuginfo", *flags)
    if r.returncode != 0:
        return []  # a file bufferlog refuses has no output to check
    src = path.read_text().splitlines()
    bad = []
    for ln in r.stdout.splitlines():
        m = ADDED.search(ln)
        if m is None or NAMED_LOC.search(ln):
            continue
        p = PLAIN_LOC.search(ln)
        if p is not None and 0 < int(p.group(1)) <= len(src) and m.group(1) in src[int(p.group(1)) - 1]:
            continue  # the input wrote this op
        bad.append(ln.strip())
    return bad


@pytest.mark.parametrize("plan", ["default", "all"])
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_added_op_has_a_cause(path, plan):
    assert uncaused(path, "--plan", plan) == []


WHILE = oracle.shared_dir() / "corpus" / "torch" / "while_loop.mlir"


@pytest.mark.skipif(not WHILE.exists(), reason="needs the shared corpus")
def test_loop_copy_names_the_buffer_made_outside_the_loop():
    """The yielded %6 lives in the tensor.empty of line 10, made outside the scf.while of
    line 24: that is why the scf.yield's copy exists (it had no cause before)."""
    out = cli("bufferize", str(WHILE), "--mlir-print-debuginfo").stdout
    (copy,) = [ln for ln in out.splitlines() if "memref.copy" in ln and f'"{WHILE}":52:' in ln]
    assert "copy of %6 passed on by the scf.yield to the next iteration of the scf.while at 24:5" in copy
    assert "the buffer of the tensor.empty at 10:5, made outside the loop" in copy
    # a conflict that only exists through the loop's back edge says so
    (loop,) = [ln for ln in out.splitlines() if "memref.copy" in ln and f'"{WHILE}":41:' in ln]
    assert "reads later in the next iteration of the scf.while at 24:5" in loop
    # the same op's conflict at line 12 is in one pass, no loop involved
    (once,) = [ln for ln in out.splitlines() if "memref.copy" in ln and f'"{WHILE}":12:' in ln]
    assert "next iteration" not in once


def _stats(err: str) -> dict:
    line = next(ln for ln in err.splitlines() if ln.startswith("ops="))
    return {k: json.loads(v) for k, v in (kv.split("=", 1) for kv in line.split())}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_explain_lists_every_copy(path):
    """``explain FILE`` (no --op) lists as many copies and bytes as --stats counts, each
    with a cause (the same text the output's location carries)."""
    b = cli("bufferize", str(path), "--stats")
    if b.returncode != 0:
        pytest.skip("bufferlog refuses this file")
    stats = _stats(b.stderr)
    r = cli("explain", str(path), "--format", "json")
    assert r.returncode == 0, r.stderr
    listing = json.loads(r.stdout)
    assert listing["copies"] == len(listing["list"]) == stats["copies"]
    assert listing["bytes_copied"] == stats["bytes_copied"]
    src = path.read_text()
    for c in listing["list"]:
        assert c["cause"] or c["op"] in ("memref.copy", "linalg.copy") and c["op"] in src, c
    text = cli("explain", str(path)).stdout
    assert len(re.findall(r"^copy \d+: ", text, re.M)) == stats["copies"]
    assert text.count("  cause: ") == stats["copies"]


def test_user_rule_cited_in_the_headline(tmp_path):
    """must_copy and no_conflict rules are named by file:line in the answer itself, at
    the default depth and without --proof."""
    src = tmp_path / "f.mlir"
    src.write_text(
        "func.func @f(%t: tensor<4xf32>, %v: f32, %i: index) -> (tensor<4xf32>, f32) {\n"
        "  %w = tensor.insert %v into %t[%i] : tensor<4xf32>\n"
        "  %r = tensor.extract %t[%i] : tensor<4xf32>\n"
        "  return %w, %r : tensor<4xf32>, f32\n}\n")
    (tmp_path / "nc").mkdir()
    (tmp_path / "nc" / "ok.dl").write_text(
        "// the write never reaches what the read reads\n"
        "no_conflict(r, 0, w, 1) :- op_loc(r, _, 3, _), op_loc(w, _, 2, _).\n")
    (tmp_path / "mc").mkdir()
    (tmp_path / "mc" / "copy.dl").write_text("\n\nmust_copy(o, 0) :- op_loc(o, _, 3, _).\n")
    nc = cli("explain", str(src), "--op", "2", "--rules", str(tmp_path / "nc"))
    head = next(ln for ln in nc.stdout.splitlines() if "operand #1" in ln)
    assert f"in place: the no_conflict rule at {tmp_path / 'nc' / 'ok.dl'}:2 clears" in head
    assert "proof of" not in nc.stdout
    mc = cli("explain", str(src), "--op", "3", "--rules", str(tmp_path / "mc"))
    head = next(ln for ln in mc.stdout.splitlines() if "operand #0" in ln)
    assert f"forced out of place by a must_copy rule at {tmp_path / 'mc' / 'copy.dl'}:3" in head


def test_datalog_explain_expands_a_cut_proof_node(tmp_path):
    """The hint of a cut node leads somewhere: ``facts --with-decisions`` writes what the
    proofs come from, and ``datalog explain`` proves the cut tuple from it."""
    ex = str(REPO / "examples" / "raw_conflict.mlir")
    out = cli("explain", ex, "--op", "5", "--proof", "--depth", "1").stdout
    cut = re.findall(r"\[\.\.\.: explain it to expand (\S+)\]", out)
    assert cut, out
    d = tmp_path / "facts"
    r = cli("facts", ex, "--with-decisions", "-o", str(d))
    assert r.returncode == 0, r.stderr
    program = re.search(r"datalog explain (\S+) -F", r.stderr).group(1)
    for t in cut:
        p = cli("datalog", "explain", program, "-F", str(d), t)
        assert p.returncode == 0 and "is not derived" not in p.stdout and p.stdout.startswith(t), (t, p.stdout, p.stderr)


def test_analyze_json_has_one_shape_per_place():
    """A conflict's definition, write and read are objects alike (not a string)."""
    r = cli("analyze", "examples/raw_conflict.mlir", "--format", "json")
    (op,) = [o for o in json.loads(r.stdout)["ops"] if o["op"] == "tensor.insert"]
    (c,) = [x["conflict"] for x in op["operands"] if x["operand"] == 1]
    assert set(c["definition"]) == {"value", "op", "loc"}
    assert c["definition"] == {"value": "result 0", "op": "tensor.from_elements",
                               "loc": "examples/raw_conflict.mlir:4:3"}
    assert set(c["write"]) == set(c["read"]) == {"op", "operand", "loc"}
