"""benchmarks/measure.py times whole processes; its figures are the ratios the speed
targets are judged by. Tested with a fake clock and a fake process, so that nothing here
depends on how fast the machine is: a process is waited for by one blocking ``wait()``
(``Popen.wait(timeout)`` polls with sleeps of up to 50 ms, which rounded every short
run up), its time is exactly the clock's, one past its time limit is killed and
reported as a timeout, and every run carries the load average it started at."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

try:
    from benchmarks import measure as M
except ImportError:  # tests/ alone on sys.path
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks import measure as M


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeProcess:
    """A process that 'runs' for ``seconds`` of the fake clock when waited for; with
    ``hang`` it runs until killed."""

    def __init__(self, clock: FakeClock, seconds: float, rc: int = 0, hang: bool = False):
        self.clock, self.seconds, self.rc, self.hang = clock, seconds, rc, hang
        self.pid = 4242
        self.killed = threading.Event()
        self.waits: list[tuple] = []
        self.cmd = None

    def __call__(self, cmd, **kw):  # the popen
        self.cmd, self.kw = cmd, kw
        return self

    def wait(self, *args, **kw):
        self.waits.append((args, kw))
        if self.hang:
            assert self.killed.wait(30), "never killed"
            self.clock.now += self.seconds
            return -signal.SIGKILL
        self.clock.now += self.seconds
        return self.rc


def test_a_run_is_one_blocking_wait_timed_by_the_clock():
    clock = FakeClock()
    proc = FakeProcess(clock, 0.0713)
    r = M.run(["bufferlog", "print", "f.mlir"], clock=clock, popen=proc,
              loadavg=lambda: (1.234, 0.5, 0.25))
    assert proc.waits == [((), {})]  # no timeout given to wait(): no polling
    assert r["s"] == 0.0713 and r["status"] == "ok" and r["rc"] == 0
    assert r["load"] == 1.23
    assert proc.cmd[-3:] == ["bufferlog", "print", "f.mlir"]
    assert proc.kw["start_new_session"] is True


def test_a_time_limit_does_not_make_the_wait_poll_and_kills_the_group():
    clock = FakeClock()
    proc = FakeProcess(clock, 0.5, hang=True)
    killed: list[tuple] = []

    def killpg(pid: int, sig: int) -> None:
        killed.append((pid, sig))
        proc.killed.set()

    r = M.run(["sleep", "30"], timeout=0.01, clock=clock, popen=proc, killpg=killpg,
              loadavg=lambda: (0.0, 0.0, 0.0))
    assert proc.waits == [((), {})]
    assert killed == [(4242, signal.SIGKILL)]
    assert r["status"] == "timeout" and r["rc"] is None


def test_a_failing_process_is_an_error_with_its_code():
    clock = FakeClock()
    r = M.run(["false"], clock=clock, popen=FakeProcess(clock, 0.01, rc=3),
              loadavg=lambda: (2.0, 0, 0))
    assert (r["status"], r["rc"]) == ("error", 3)


def test_the_cold_and_warm_environments():
    cold, warm = M.env(), M.env(warm=True)
    assert cold["BUFFERLOG_NO_SERVER"] == "1" and "BUFFERLOG_NO_SERVER" not in warm
    assert cold["BUFFERLOG_RUN_DIR"] == warm["BUFFERLOG_RUN_DIR"] == str(M.RUN_DIR)
    assert cold["BUFFERLOG_CACHE_DIR"] == warm["BUFFERLOG_CACHE_DIR"] == str(M.CACHE_DIR)
    for e in (cold, warm):  # the environment as it is: nothing else changed
        assert {k: v for k, v in e.items() if not k.startswith("BUFFERLOG_")} == \
            {k: v for k, v in M.os.environ.items() if not k.startswith("BUFFERLOG_")}


def test_the_median_run_keeps_the_load_span():
    runs = [{"s": s, "rss_mb": 1.0, "status": "ok", "rc": 0, "load": load}
            for s, load in ((3.0, 1.5), (1.0, 0.5), (2.0, 2.5))]
    m = M.median_run(runs)
    assert (m["s"], m["runs"], m["load"]) == (2.0, 3, [0.5, 2.5])


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


REPORT = """\
                        bufferlog execution time report
===-------------------------------------------------------------------------===
  Total Execution Time: 9.0000 seconds

  ----Wall Time----  ----Name----
    1.0000 ( 11.1%)  parse
    3.0000 ( 33.3%)  analysis
    2.0000 ( 22.2%)    rules
    3.0000 ( 33.3%)  dealloc
    1.8000 ( 20.0%)  output certificate
    1.1000 ( 12.2%)    clingo ground
    0.2000 (  2.2%)  other (start-up, reading input, printing)
    9.0000 (100.0%)  Total
"""


def test_a_phase_share_is_of_the_top_level_phases_without_the_total():
    """The output certificate's share of a ``--timing`` report: 1.8 s of 9 s (an earlier
    parse counted the Total line as a phase too, and halved every share)."""
    from benchmarks.bench_scaling import top_share

    got = top_share(REPORT, "output certificate")
    assert got == {"output_certificate_s": 1.8, "bufferize_s": 9.0, "share": 0.2}
