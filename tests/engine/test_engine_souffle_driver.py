"""The Soufflé driver (rendering, TSV in/out, binary cache, explain via stdin) against a
stand-in executable (fake_souffle.py).  Real Soufflé runs are in the conformance and
provenance tests and skip when it is absent."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from bufferlog.engine import EngineError, Program, explain, run, souffle
from test_engine_conformance import PROGRAMS, ROOT, expected

FAKE = Path(__file__).with_name("fake_souffle.py")


@pytest.fixture
def fake_souffle(tmp_path, monkeypatch):
    exe = tmp_path / "souffle"
    exe.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} \"$@\"\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("BUFFERLOG_SOUFFLE", str(exe))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return exe


@pytest.mark.parametrize("compiled", [False, True], ids=["interpreted", "compiled"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_driver_conformance(fake_souffle, name, compiled):
    case = ROOT / name
    prog = Program.load(case / "prog.dl")
    res = run(prog, case / "facts", engine="auto", compiled=compiled)
    assert res.engine == "souffle"
    assert res.relations == expected(prog, case)


def test_compiled_binary_is_cached(fake_souffle, tmp_path):
    case = ROOT / "tc"
    run(case / "prog.dl", case / "facts", engine="souffle", compiled=True)
    bins = list((tmp_path / "cache" / "bufferlog" / "souffle").glob("*/prog"))
    assert len(bins) == 1
    mtime = os.stat(bins[0]).st_mtime_ns
    run(case / "prog.dl", case / "facts", engine="souffle", compiled=True)
    assert os.stat(bins[0]).st_mtime_ns == mtime
    run(ROOT / "negation" / "prog.dl", ROOT / "negation" / "facts", engine="souffle", compiled=True)
    assert len(list((tmp_path / "cache" / "bufferlog" / "souffle").glob("*/prog"))) == 2


def test_explain_through_stdin(fake_souffle):
    case = ROOT / "tc"
    a = explain(case / "prog.dl", case / "facts", 'path("a","d")', engine="embedded")
    b = explain(case / "prog.dl", case / "facts", 'path("a","d")', engine="souffle")
    assert b["engine"] == "souffle" and b["derived"]

    def strip(n):
        return {k: [strip(c) for c in v] if k == "premises" else v
                for k, v in n.items() if k != "height"}

    assert strip(a["proof"]) == strip(b["proof"])
    assert explain(case / "prog.dl", case / "facts", 'path("d","a")',
                   engine="souffle")["derived"] is False


def test_souffle_failure_names_the_engine(fake_souffle, tmp_path):
    bad = tmp_path / "exe"
    bad.write_text("#!/bin/sh\necho 'Error: boom in file prog.dl at line 7' >&2\nexit 3\n")
    bad.chmod(0o755)
    os.environ["BUFFERLOG_SOUFFLE"] = str(bad)
    case = ROOT / "tc"
    with pytest.raises(EngineError, match=r"souffle engine failed evaluating .*\(exit 3\) in "
                                          r"the rule at .*prog\.dl:8:1 \(path\(x, y\) :- edge"):
        run(case / "prog.dl", case / "facts", engine="souffle")


def test_souffle_timeout(fake_souffle, tmp_path):
    slow = tmp_path / "slow"
    slow.write_text("#!/bin/sh\nsleep 30; echo done\n")
    slow.chmod(0o755)
    os.environ["BUFFERLOG_SOUFFLE"] = str(slow)
    with pytest.raises(EngineError, match=r"souffle engine timed out after 0.5 s evaluating"):
        run(ROOT / "tc" / "prog.dl", ROOT / "tc" / "facts", engine="souffle", timeout=0.5)


def test_render_round_trips(tmp_path):
    """The rendered Soufflé text parses back to the same clauses."""
    for name in PROGRAMS:
        prog = Program.load(ROOT / name / "prog.dl")
        text, _ = souffle.render(prog, prog.outputs)
        again = Program.from_text(text)
        assert [(r.head, r.body) for r in again.rules] == [(r.head, r.body) for r in prog.rules]
        assert again.outputs == prog.outputs and again.inputs == prog.inputs
