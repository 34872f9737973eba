"""Buffer reuse (docs/memory-planning.md, rules/plan.dl ``may_share``,
backend/plan_reuse.py): programs run under mlir-runner-22 with the counting allocator
print the values computed by hand in their header and free everything exactly once; the
colouring is checked on hand-made interference graphs."""

from __future__ import annotations

import re

import pytest

try:
    from tests import gen_programs, oracle
except ImportError:  # tests/ on sys.path
    import gen_programs
    import oracle

from bufferlog.backend.certify_output import OutputCertificateError
from bufferlog.backend.plan import PlanOptions
from bufferlog.backend.plan_reuse import Candidate, _greedy, _z3

from bufferlog.api import bufferize, parse

needs_oracle = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")
DIR = oracle.REPO / "tests" / "memplan"


def _run(name: str, reuse: bool) -> tuple[oracle.RunResult, int]:
    text = (DIR / f"{name}.mlir").read_text()
    b = bufferize(parse(text, name), plan=PlanOptions(reuse=reuse))
    r = oracle.run_program(b.print())
    assert r.clean, (r.returncode, r.live, r.double_frees, r.bad_frees, r.stderr[-1000:])
    return r, b.plan.reused


@needs_oracle
@pytest.mark.oracle
def test_sequential_temporaries_share_one_buffer():
    shared, reused = _run("reuse_sequential", True)
    alone, none = _run("reuse_sequential", False)
    assert shared.data == alone.data == "[" + ",  ".join(["4"] * 8) + "]"
    assert (reused, none) == (2, 0)
    assert (shared.allocs, alone.allocs) == (1, 3)
    assert shared.peak_bytes == alone.peak_bytes == 300 * 4


@needs_oracle
@pytest.mark.oracle
def test_overlapping_lives_and_loop_body_share_nothing():
    r, reused = _run("reuse_refused", True)
    assert r.data == "[12,  3,  3,  3]"
    # %a and %b (live at once) and the loop's temporary take no dead buffer; %x does take
    # %sum's, dead after the extract: the loop hands %x back unchanged every iteration,
    # so %x is one plain buffer from its fill to the end (rules/liveness.dl carried_same)
    assert reused == 1
    assert r.allocs == 3 + 3  # three in main, the temporary once per iteration


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("seed,kw", [(s, {}) for s in (0, 1, 2, 26, 27, 29)]
                         + [(3, {"forall": True, "cf": True})]
                         + [pytest.param(7, {"forall": True, "cf": True}, marks=pytest.mark.xfail(
                             raises=OutputCertificateError, strict=True,
                             reason="certificate of the output: a loop's block argument holding "
                                    "this iteration's copy is not told apart from an older "
                                    "instance of it (docs/analysis.md, limits)"))])
def test_generated_programs_with_reuse(seed, kw):
    """Same printed values as the semantic reference, every buffer freed once."""
    text = gen_programs.generate(seed, 12, dps=True, **kw)
    ref = oracle.run_semantic(text)
    b = bufferize(parse(text, f"gen{seed}"), plan=PlanOptions.all())
    r = oracle.run_program(b.print())
    assert r.clean and r.data == ref.data, (r.live, r.double_frees, r.bad_frees)


@needs_oracle
@pytest.mark.oracle
def test_certificate_false_alarm_output_is_right():
    """The output the certificate rejects above (seed 7) is right: the false alarm is the
    certificate's, not a wrong program."""
    text = gen_programs.generate(7, 12, dps=True, forall=True, cf=True)
    ref = oracle.run_semantic(text)
    b = bufferize(parse(text, "gen7"), plan=PlanOptions.all(), check_output=False)
    r = oracle.run_program(b.print())
    assert r.clean and r.data == ref.data, (r.live, r.double_frees, r.bad_frees)


def _cands(*ranges: tuple[int, int, int]) -> list[Candidate]:
    return [Candidate(k, None, s, e, n) for k, (s, e, n) in enumerate(ranges)]


def test_colouring_keeps_the_peak():
    """a [0,1] and c [4,5] may share (same type); b [2,3] of another type is made in the
    gap. Sharing holds a's 100 bytes over b: the peak at b becomes 110. With a bigger
    buffer d [6,7] elsewhere the peak (1000) does not move, so Z3 shares, greedy (which
    never spans another candidate's alloc) does not."""
    a, b, c = _cands((0, 1, 100), (2, 3, 10), (4, 5, 100))
    assert _z3([a, b, c], {(a, c)}) == []
    assert _greedy([a, b, c], {(a, c)}) == []
    a, b, c, d = _cands((0, 1, 100), (2, 3, 10), (4, 5, 100), (6, 7, 1000))
    assert _z3([a, b, c, d], {(a, c)}) == [[a, c]]
    assert _greedy([a, b, c, d], {(a, c)}) == []


def test_colouring_chains_in_program_order():
    """Three buffers one after the other, each may follow any earlier one: one chain."""
    a, b, c = _cands((0, 1, 8), (2, 3, 8), (4, 5, 8))
    edges = {(a, b), (a, c), (b, c)}
    assert _greedy([a, b, c], edges) == [[a, b, c]] == _z3([a, b, c], edges)


def test_greedy_colouring_does_not_depend_on_edge_order():
    """Two dead buffers that die at the same op may both give theirs to a later one:
    the choice does not depend on the order the edges come in (a set of candidates hashed
    by identity gave two outputs for one input, generated seed 29 with dps)."""
    a, b, c = _cands((0, 5, 8), (1, 5, 8), (6, 7, 8))
    edges = [(a, c), (b, c)]
    assert _greedy([a, b, c], edges) == _greedy([a, b, c], edges[::-1]) == [[b, c]]


def test_explain_alloc_cites_the_rules(tmp_path, capsys):
    """``explain --alloc`` on a line of the input and on a line of the located output:
    where the buffer is freed and what it reuses, each with its rule's file:line (read
    from the rules, independently of the explanation code)."""
    from bufferlog import cli

    src = str(DIR / "reuse_sequential.mlir")
    rules = (oracle.REPO / "rules" / "plan.dl").read_text().splitlines()
    free_after = 1 + next(k for k, ln in enumerate(rules) if ln.startswith("free_after(t, v, o) :- free_everywhere(t, b, v), last_use_pos"))
    may_share = 1 + next(k for k, ln in enumerate(rules) if ln.startswith("may_share(a, c) :-"))
    assert cli.main(["explain", src, "--alloc", "15"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{src}:15:3: %e2 = tensor.empty()")
    assert re.search(rf"freed right after its last use, the memref.load at {src}:18:3 .*"
                     rf"\[free_after.R1 rules/plan.dl:{free_after}\]", out)
    assert re.search(rf"reuses the buffer of the memref.alloc at {src}:10:3.*"
                     rf"\[may_share.R1 rules/plan.dl:{may_share}\]", out)
    located = tmp_path / "out.mlir"
    assert cli.main(["bufferize", src, "--mlir-print-debuginfo", "-o", str(located)]) == 0
    capsys.readouterr()
    line = 1 + next(k for k, ln in enumerate(located.read_text().splitlines())
                    if "memref.alloc" in ln)
    assert cli.main(["explain", src, "--alloc", f"{located}:{line}", "--no-reuse"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{src}:10:3: %e = tensor.empty()") and "may_share" not in out
    assert cli.main(["explain", src, "--alloc", "3"]) == 1
    assert "no memref.alloc made for line 3" in capsys.readouterr().err
