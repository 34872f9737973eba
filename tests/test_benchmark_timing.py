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


def test_interleaved_alternates_jobs_and_takes_each_median():
    order: list[str] = []

    def job(name: str, times: list[float]):
        def run() -> dict:
            order.append(name)
            return {"s": times.pop(0), "rss_mb": 1.0, "status": "ok", "rc": 0}
        return run

    got = M.interleaved({"a": job("a", [3.0, 1.0, 2.0]), "b": job("b", [9.0, 7.0, 8.0])}, 3)
    assert order == ["a", "b"] * 3
    assert (got["a"]["s"], got["b"]["s"], got["a"]["runs"]) == (2.0, 8.0, 3)
