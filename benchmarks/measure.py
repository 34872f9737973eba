"""How every benchmark measures: whole processes, timed the same way for both tools.

A measurement is one process (``bufferlog ...`` or ``mlir-opt-22 ...``) run to its end:
wall time from spawn to exit (start-up included, nothing replicated or cached in
between) and peak resident memory of that one process (``/usr/bin/time``'s "Maximum
resident set size", the kernel's ``ru_maxrss``), with the machine's load average (1
minute) when it started. ``compare`` runs the two commands alternately, ``repeat`` times
each, and keeps the median of each side, so load on the shared machine hits both alike.

bufferlog runs as a user gets it (:mod:`benchmarks.install`): a regular, non-editable
``pip install`` of this checkout into a fresh virtual environment, run with the
environment as it is (``PYTHONDONTWRITEBYTECODE`` stays set if it is set). Cold runs set
``BUFFERLOG_NO_SERVER=1`` (a new process does everything); warm runs go through a
``bufferlog serve`` of that install, started by the benchmark in its own run directory
(``build/bench-run``), so a developer's own server is never measured.
"""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
MLIR_OPT = shutil.which(os.environ.get("MLIR_OPT", "mlir-opt-22"))
#: the fresh install the benchmarks measure (benchmarks/install.py); BUFFERLOG_BENCH_EXE
#: names another executable
BENCH_VENV = ROOT / "build" / "bench-venv"
BUFFERLOG = os.environ.get("BUFFERLOG_BENCH_EXE") or str(BENCH_VENV / "bin" / "bufferlog")
#: the run directory of the benchmark's own server, and its cache folder
RUN_DIR = ROOT / "build" / "bench-run"
CACHE_DIR = ROOT / "build" / "bench-cache"
TIME = shutil.which("time", path="/usr/bin:/bin") or "/usr/bin/time"

OSB = "bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
#: mlir-opt doing the job of each bufferlog command (what a user would run instead)
MLIR_JOB = {
    "print": [],
    "analyze": ["--one-shot-bufferize=bufferize-function-boundaries test-analysis-only "
                "print-conflicts"],
    "bufferize": [f"--one-shot-bufferize={OSB}", "--buffer-deallocation-pipeline"],
}


def env(warm: bool = False) -> dict[str, str]:
    """The environment of a measured process: this one's as it is, the benchmark's run
    directory and cache folder, and ``BUFFERLOG_NO_SERVER=1`` unless ``warm``. (The cache
    folder of parser tables and checked rules is the benchmark's own, filled by
    benchmarks/install.py, as a user's is theirs: on a shared machine other checkouts
    would otherwise rewrite it, and a measured run would rebuild it.)"""
    e = dict(os.environ)
    e["BUFFERLOG_RUN_DIR"] = str(RUN_DIR)
    e["BUFFERLOG_CACHE_DIR"] = str(CACHE_DIR)
    if warm:
        e.pop("BUFFERLOG_NO_SERVER", None)
    else:
        e["BUFFERLOG_NO_SERVER"] = "1"
    return e


def run(cmd: list[str], timeout: float | None = None, environ: dict | None = None,
        clock: Callable[[], float] = time.perf_counter,
        popen: Callable[..., Any] = subprocess.Popen,
        loadavg: Callable[[], tuple] = os.getloadavg,
        killpg: Callable[[int, int], None] = os.killpg) -> dict[str, Any]:
    """One process: {"s": wall seconds, "rss_mb": peak RSS, "status": "ok" | "error" |
    "timeout", "rc": exit code, "load": 1-minute load average at the start}. Output goes
    to /dev/null (as a user's would to a file).

    The process is waited for by a blocking ``wait()``, without polling:
    ``Popen.wait(timeout)`` and ``subprocess.run(timeout=...)`` poll with sleeps of up to
    50 ms, which rounded every short run up to 63.5, 113.5, 163.5 ... ms. A time limit is
    a timer thread that kills the process group.

    The process is started by ``/usr/bin/time -f %M``, whose report is its peak RSS: a
    process forked from this (large) Python process would start with this process's
    peak recorded as its own (Linux copies the high-water mark across fork/exec).
    ``clock``, ``popen``, ``loadavg`` and ``killpg`` are the real ones but for tests."""
    load = round(loadavg()[0], 2)
    with open(os.devnull, "wb") as null, open(os.devnull, "rb") as empty, \
            tempfile.TemporaryFile() as errf, tempfile.NamedTemporaryFile("r") as rssf:
        t0 = clock()
        p = popen([TIME, "-f", "%M", "-o", rssf.name, *cmd], stdout=null, stderr=errf,
                  stdin=empty, env=env() if environ is None else environ,
                  start_new_session=True)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            try:
                killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer is not None:
            timer.start()
        rc = p.wait()
        elapsed = clock() - t0
        if timer is not None:
            timer.cancel()
        if killed.is_set():
            return {"s": round(elapsed, 3), "rss_mb": None, "status": "timeout", "rc": None,
                    "load": load}
        errf.seek(0)
        err = errf.read().decode(errors="replace")
        report = rssf.read().split()
    rss = int(report[-1]) / 1024 if report and report[-1].isdigit() else None
    if rc and err.startswith("Command exited with non-zero status"):
        err = err.split("\n", 1)[-1]
    out = {"s": round(elapsed, 4), "rss_mb": None if rss is None else round(rss, 1),
           "status": "ok" if rc == 0 else "error", "rc": rc, "load": load}
    if rc:
        out["error"] = err.strip().splitlines()[-1][:300] if err.strip() else f"exit {rc}"
    return out


def ours(command: str, path: str | Path, *extra: str, timeout: float | None = None,
         warm: bool = False) -> dict:
    """``bufferlog command path extra`` as installed, cold or through the server."""
    return run([BUFFERLOG, command, str(path), *extra], timeout, env(warm))


def theirs(command: str, path: str | Path, timeout: float | None = None) -> dict:
    if MLIR_OPT is None:
        return {"s": None, "rss_mb": None, "status": "missing", "rc": None}
    return run([MLIR_OPT, str(path), *MLIR_JOB[command]], timeout)


def median_run(runs: list[dict]) -> dict:
    """The run with the median time (the largest RSS of the runs with it); status of the
    worst run; ``load``: the lowest and highest load average the runs started at."""
    loads = [r["load"] for r in runs if r.get("load") is not None]
    span = [min(loads), max(loads)] if loads else None
    ok = [r for r in runs if r["status"] == "ok"]
    if len(ok) < len(runs):
        bad = next(r for r in runs if r["status"] != "ok")
        return {**bad, "runs": len(runs), "load": span}
    ok.sort(key=lambda r: r["s"])
    m = dict(ok[len(ok) // 2])
    m["s"] = round(statistics.median(r["s"] for r in ok), 4)
    rss = [r["rss_mb"] for r in ok if r.get("rss_mb") is not None]
    m["rss_mb"] = max(rss) if rss else None
    m["runs"] = len(runs)
    m["load"] = span
    return m


def compare(command: str, path: str | Path, repeat: int = 1, timeout: float | None = None,
            their_timeout: float | None = None, extra: tuple[str, ...] = ()) -> dict:
    """bufferlog ``command`` and mlir-opt's same job on ``path``, interleaved."""
    a: list[dict] = []
    b: list[dict] = []
    for _ in range(repeat):
        a.append(ours(command, path, *extra, timeout=timeout))
        b.append(theirs(command, path, timeout=their_timeout or timeout))
        if a[-1]["status"] == "timeout" and b[-1]["status"] == "timeout":
            break
    mine, other = median_run(a), median_run(b)
    return {"bufferlog": mine, "mlir_opt": other, "ratio": ratio(mine, other),
            "rss_ratio": ratio(mine, other, "rss_mb")}


def interleaved(jobs: dict[str, Callable[[], dict]], repeat: int) -> dict[str, dict]:
    """Each job once per round, ``repeat`` rounds: the median run of each job (ratios
    between jobs taken from the same rounds, not from runs minutes apart)."""
    runs: dict[str, list[dict]] = {k: [] for k in jobs}
    for _ in range(repeat):
        for k, job in jobs.items():
            runs[k].append(job())
    return {k: median_run(v) for k, v in runs.items()}


def ratio(mine: dict, other: dict, key: str = "s") -> float | None:
    """mine / other when both did the job."""
    if mine.get("status") != "ok" or other.get("status") != "ok":
        return None
    if not other.get(key) or mine.get(key) is None:
        return None
    return round(mine[key] / other[key], 3)


def machine() -> dict:
    import platform

    load = os.getloadavg()
    ver = subprocess.run([MLIR_OPT, "--version"], capture_output=True, text=True).stdout \
        if MLIR_OPT else ""
    return {"python": platform.python_version(), "cpus": os.cpu_count(),
            "platform": platform.platform(), "load_avg_at_start": [round(x, 2) for x in load],
            "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "mlir_opt": next((ln.strip() for ln in ver.splitlines() if "version" in ln), None)}


def save(name: str, data: dict) -> Path:
    import json

    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{name}.json"
    out.write_text(json.dumps({"machine": machine(), **data}, indent=2) + "\n")
    return out


class server:
    """``with server():`` a ``bufferlog serve`` of the measured install is up in the
    benchmark's run directory (warm runs: ``ours(..., warm=True)``), stopped after."""

    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 1

    def __enter__(self) -> server:
        RUN_DIR.mkdir(parents=True, exist_ok=True)
        RUN_DIR.chmod(0o700)
        r = subprocess.run([BUFFERLOG, "serve", "--detach", "--workers", str(self.workers)],
                           capture_output=True, text=True, env=env(warm=True), timeout=600)
        if r.returncode != 0:
            raise RuntimeError(f"bufferlog serve --detach failed: {r.stderr.strip()}")
        return self

    def __exit__(self, *exc) -> None:
        subprocess.run([BUFFERLOG, "serve", "--stop"], capture_output=True,
                       env=env(warm=True), timeout=120)


def settle(seconds: float = 0.3) -> None:
    """A pause after a warm run: the server forks the replacement of the worker that
    answered right after it, which bufferizes a small sample before it waits (to take
    its page faults then, not in a command): that must not land in the next measured
    process."""
    time.sleep(seconds)
