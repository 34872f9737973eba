"""mlir-opt's command lines through bufferlog: RUN lines written for mlir-opt (one dash,
``--pass-pipeline``, ``-split-input-file``, ``-verify-diagnostics``) are run as written by
mlir-opt-22 and by ``bufferlog-opt``, and give the same in-place decisions, the same
function signatures and the same number of copies and clones (tests/runlines/*.mlir,
hand-written cases). Also: a pasted ``--one-shot-bufferize`` string means what it means to
mlir-opt on the other commands, and the single-dash spellings never write a stray file."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle  # noqa: E402

HERE = Path(__file__).resolve().parent
RUNLINES = sorted((HERE / "runlines").glob("*.mlir"))
BUFFERLOG_OPT = [sys.executable, "-c", "import sys; from bufferlog.cli import opt_entry; "
                 "sys.argv[0] = 'bufferlog-opt'; opt_entry()"]
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")


def run_lines(path: Path) -> list[list[str]]:
    """The arguments of the mlir-opt command that starts each RUN line of ``path``."""
    out = []
    for line in re.findall(r"^// RUN: (.*)$", path.read_text(), re.M):
        words = shlex.split(line.split("|")[0].replace("%s", str(path)))
        assert words[0] == "mlir-opt", line
        out.append(words[1:])
    return out


CASES = [(p, args) for p in RUNLINES for args in run_lines(p)]


def _id(case) -> str:
    path, args = case
    return f"{path.stem}:{CASES.index(case)}"


def signatures(text: str) -> dict[str, tuple[str, list[str], list[str]]]:
    """Each function's visibility, argument types and result types (mlir-opt's printing,
    argument names and attributes left out; helpers mlir-opt's lowering adds are skipped)."""
    out = {}
    for m in re.finditer(r"func\.func (private )?@([\w$.]+)\((.*)\)(?: -> (.*?))? (?:attributes .*)?\{$",
                         text, re.M):
        if m[2].startswith("dealloc_helper"):
            continue
        args = [re.sub(r"^%[\w$.]+: ", "", a).split(" {")[0].strip() for a in _split(m[3])]
        res = (m[4] or "").strip()
        res = _split(res[1:-1]) if res.startswith("(") else ([res] if res else [])
        out[m[2]] = (m[1] or "public", args, [r.split(" {")[0].strip() for r in res])
    return out


def _split(s: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in s:
        depth += ch in "<([{"
        depth -= ch in ">)]}"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return [p for p in parts + [cur] if p.strip()]


def chunks(text: str) -> list[str]:
    return [c for c in text.split("// -----") if "func.func" in c]


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_run_line_as_mlir_opt(case):
    """The Done-when test: a RUN line pasted as written, single dashes included."""
    _, args = case
    ref = subprocess.run([oracle.MLIR_OPT, *args], capture_output=True, text=True)
    ours = subprocess.run([*BUFFERLOG_OPT, *args], capture_output=True, text=True,
                          cwd=oracle.REPO)
    assert ours.returncode == ref.returncode == 0, ours.stderr + ref.stderr
    if "test-analysis-only" in " ".join(args):
        got, want = oracle.inplace_decisions(ours.stdout), oracle.inplace_decisions(ref.stdout)
        assert want and got == want
        return
    ours_chunks, ref_chunks = chunks(ours.stdout), chunks(ref.stdout)
    assert len(ours_chunks) == len(ref_chunks)
    for mine, theirs in zip(ours_chunks, ref_chunks, strict=True):
        mine = oracle.mlir_opt(mine)  # our output is valid for mlir-opt, printed its way
        assert signatures(mine) == signatures(theirs)
        for op in ("memref.copy", "bufferization.clone"):
            assert mine.count(op) == theirs.count(op), op


def test_run_lines_cover_the_habits():
    """The cases use what RUN lines use: one dash, --pass-pipeline, split input and
    expected diagnostics (the test above could pass on simpler command lines)."""
    flat = [" ".join(a) for _, a in CASES]
    for habit in ("-one-shot-bufferize=", "--pass-pipeline=", "-split-input-file",
                  "-verify-diagnostics", "-drop-equivalent-buffer-results",
                  "-buffer-deallocation-pipeline"):
        assert any(habit in f for f in flat), habit


def cli(*args: str, cwd=None, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bufferlog", *args], capture_output=True,
                          text=True, cwd=cwd or oracle.REPO, input=stdin)


def test_single_dash_option_is_read_not_written_to_a_file(tmp_path):
    """``-one-shot-bufferize=...`` used to be ``-o ne-shot-bufferize=...``: a file."""
    f = tmp_path / "f.mlir"
    f.write_text((HERE / "runlines" / "signatures.mlir").read_text())
    r = cli("bufferize", str(f), "-one-shot-bufferize=bufferize-function-boundaries",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "func.func @scale(%t: memref<4xf32, strided<[?], offset: ?>>" in r.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.mlir"]


@pytest.mark.parametrize("argv, message", [
    (["print", "F", "-one-shot-bufferize=x"], "'-one-shot-bufferize' is an mlir-opt pass"),
    (["bufferize", "F", "-ofoo"], "unknown option '-ofoo' (did you mean '-o'?)"),
    (["bufferize", "F", "-o", "-one-shot-bufferize"], "option '-o' needs a value, not the option"),
    (["analyze", "F", "--strategi", "optimal"], "unknown option '--strategi' (did you mean '--strategy'?)"),
    (["analyze", "F", "-split-input-fil"], "did you mean '--split-input-file'?"),
    (["analyze", "F", "--strategy", "optimul"], "did you mean 'optimal'?"),
    (["analyse", "F"], "invalid choice: 'analyse'"),
    (["opt", "F", "-canonicalize"], "pass 'canonicalize' is not one bufferlog runs"),
    (["opt", "F", "-one-shot-bufferize", "-cse"], "pass 'cse' is not one bufferlog runs"),
    (["opt", "F", "--pass-pipeline=builtin.module(canonicalize)"], "pass 'canonicalize' is not"),
    (["opt", "F", "--pass-pipeline=builtin.module(buffer-hoisting)"],
     "pass 'buffer-hoisting' runs on func.func: nest it"),
    (["opt", "F", "--pass-pipeline=one-shot-bufferize"], "wrapped with the anchor operation"),
    (["opt", "F", "-buffer-hoisting", "--pass-pipeline=builtin.module(one-shot-bufferize)"],
     "can't be used with individual pass options"),
    (["opt", "F", "-promote-buffers-to-stack=max-alloc-size=3"], "no such option 'max-alloc-size'"),
    (["opt", "F", "-buffer-deallocation-pipeline", "-buffer-hoisting"],
     "pass 'buffer-hoisting' after 'buffer-deallocation-pipeline'"),
])
def test_usage_errors_name_the_option(argv, message, tmp_path):
    f = tmp_path / "f.mlir"
    f.write_text("func.func @f() {\n  return\n}\n")
    r = cli(*[str(f) if a == "F" else a for a in argv], cwd=tmp_path)
    assert r.returncode == 1 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and sorted(p.name for p in tmp_path.iterdir()) == ["f.mlir"]
    if argv[0] == "analyse":  # not a command: the closest one
        assert "did you mean 'analyze'?" in r.stderr
    elif "usage:" in r.stderr:  # the command's usage, not the top-level one
        assert f"usage: bufferlog {argv[0]}" in r.stderr


@needs_oracle
@pytest.mark.oracle
def test_pasted_string_takes_mlir_opts_defaults():
    """The issue's case: ``test-analysis-only print-conflicts`` leaves function boundaries
    off, so the fill into the argument is out of place (not writable), as mlir-opt says;
    conflict tags appear only when the string names print-conflicts; bufferlog's own
    default (no string) keeps boundaries on."""
    path = HERE / "runlines" / "analysis.mlir"
    text = path.read_text().split("// -----")[0]
    for osb in ("test-analysis-only print-conflicts", "test-analysis-only"):
        ours = cli("analyze", "-", f"--one-shot-bufferize={osb}", stdin=text)
        ref = oracle.mlir_opt(text, f"--one-shot-bufferize={osb}")
        assert ours.returncode == 0, ours.stderr
        assert oracle.inplace_decisions(ours.stdout) == oracle.inplace_decisions(ref)
        assert ('NOT-WRITABLE' in ours.stdout) == ('print-conflicts' in osb) == (
            'NOT-WRITABLE' in ref)
    assert ('linalg.fill', ['none', 'false']) in oracle.inplace_decisions(
        cli("analyze", "-", "--one-shot-bufferize=test-analysis-only", stdin=text).stdout)
    own = cli("analyze", "-", stdin=text)
    assert ('linalg.fill', ['none', 'true']) in oracle.inplace_decisions(own.stdout)


def test_bufferize_takes_test_analysis_only(tmp_path):
    """``bufferize --one-shot-bufferize="test-analysis-only ..."`` does what mlir-opt does
    with it: annotates and stops."""
    text = (HERE / "runlines" / "analysis.mlir").read_text().split("// -----")[0]
    a = cli("bufferize", "-", "--one-shot-bufferize=bufferize-function-boundaries "
            "test-analysis-only", stdin=text)
    b = cli("analyze", "-", "--one-shot-bufferize=bufferize-function-boundaries", stdin=text)
    assert a.returncode == 0 and a.stdout == b.stdout and "__inplace_operands_attr__" in a.stdout


def _loop_programs() -> list[tuple[str, str]]:
    from gen_programs import generate

    out = [(f"dps{s}", generate(s, 12, dps=True)) for s in (0, 3, 7, 12, 15)]
    out += [(f"forall_cf{s}", generate(s, 12, forall=True, cf=True)) for s in (1, 4, 9)]
    out += [(p.name, p.read_text()) for p in sorted((oracle.SHARED / "corpus").rglob("*.mlir"))
            if "scf.for" in p.read_text() or "scf.while" in p.read_text()][:8]
    return out


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("name, text", _loop_programs(), ids=lambda x: x if len(x) < 40 else "")
def test_loops_without_allow_return_allocs_as_mlir_opt(name, text):
    """allow-return-allocs-from-loops left out: the same loop is rejected (same message,
    same place; nested loops checked first, as mlir-opt's walk) or the input accepted."""
    from bufferlog.api import analyze, parse
    from bufferlog.core import UserError

    osb = "bufferize-function-boundaries test-analysis-only"
    try:
        oracle.mlir_opt(text, f"--one-shot-bufferize={osb}")
        want = None
    except oracle.OracleError as e:
        m = re.search(r"^<stdin>:(\d+:\d+): error: (.*)$", e.stderr, re.M)
        want = (m[1], m[2])
    try:
        analyze(parse(text, "<stdin>"), options=osb, engine="embedded")
        got = None
    except UserError as e:
        got = (str(e.loc).split(":", 1)[1], e.message)
    assert got == want
