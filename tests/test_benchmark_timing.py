"""benchmarks/measure.py times whole processes; its figures are the ratios issue 11 is
judged by. A process is waited for without polling (``Popen.wait(timeout)`` sleeps up to
50 ms between polls, which rounded every run up to 63.5, 113.5, ... ms), and one past its
time limit is killed and reported as a timeout."""

from __future__ import annotations

from pathlib import Path

import pytest

try:
    from benchmarks import measure as M
except ImportError:  # tests/ alone on sys.path
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks import measure as M

pytestmark = pytest.mark.skipif(not Path(M.TIME).exists(), reason="no GNU time")


def test_a_short_process_is_not_rounded_up():
    best = min(M.run(["sleep", "0.07"], timeout=30)["s"] for _ in range(3))
    assert 0.07 <= best < 0.105  # a polling wait reports 0.1135


def test_a_process_past_its_limit_is_killed():
    r = M.run(["sleep", "30"], timeout=0.3)
    assert r["status"] == "timeout"
    assert r["s"] < 5
