"""How every benchmark measures: whole processes, timed the same way for both tools.

A measurement is one process (``bufferlog ...`` or ``mlir-opt-22 ...``) run to its end:
wall time from spawn to exit (start-up included, nothing replicated or cached in
between) and peak resident memory of that one process (``/usr/bin/time``'s "Maximum
resident set size", the kernel's ``ru_maxrss``). ``compare`` runs the two commands
alternately, ``repeat`` times each, and keeps the median of each side, so load on the
shared machine hits both alike.

bufferlog runs as installed (``.venv/bin/bufferlog``) with Python's normal bytecode
caching (``PYTHONDONTWRITEBYTECODE`` is removed from its environment: a user's install
has compiled ``.pyc`` files).
"""

from __future__ import annotations

import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
MLIR_OPT = shutil.which(os.environ.get("MLIR_OPT", "mlir-opt-22"))
BUFFERLOG = str(Path(sys.executable).parent / "bufferlog")
TIME = shutil.which("time", path="/usr/bin:/bin") or "/usr/bin/time"

OSB = "bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
#: mlir-opt doing the job of each bufferlog command (what a user would run instead)
MLIR_JOB = {
    "print": [],
    "analyze": ["--one-shot-bufferize=bufferize-function-boundaries test-analysis-only "
                "print-conflicts"],
    "bufferize": [f"--one-shot-bufferize={OSB}", "--buffer-deallocation-pipeline"],
}


def env() -> dict[str, str]:
    e = dict(os.environ)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    return e


def run(cmd: list[str], timeout: float | None = None) -> dict[str, Any]:
    """One process: {"s": wall seconds, "rss_mb": peak RSS, "status": "ok" | "error" |
    "timeout", "rc": exit code}. Output goes to /dev/null (as a user's would to a file).

    The process is started by ``/usr/bin/time -f %M``, whose report is its peak RSS: a
    process forked from this (large) Python process would start with this process's
    peak recorded as its own (Linux copies the high-water mark across fork/exec)."""
    with open(os.devnull, "wb") as null, open(os.devnull, "rb") as empty, \
            tempfile.TemporaryFile() as errf, tempfile.NamedTemporaryFile("r") as rssf:
        t0 = time.perf_counter()
        p = subprocess.Popen([TIME, "-f", "%M", "-o", rssf.name, *cmd], stdout=null,
                             stderr=errf, stdin=empty, env=env(), start_new_session=True)
        # a blocking wait: Popen.wait(timeout) polls with sleeps of up to 50 ms, which
        # rounded every short run up to 63.5, 113.5, 163.5 ... ms
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill) if timeout else None
        if timer is not None:
            timer.start()
        rc = p.wait()
        elapsed = time.perf_counter() - t0
        if timer is not None:
            timer.cancel()
        if killed.is_set():
            return {"s": round(elapsed, 3), "rss_mb": None, "status": "timeout", "rc": None}
        errf.seek(0)
        err = errf.read().decode(errors="replace")
        report = rssf.read().split()
    rss = int(report[-1]) / 1024 if report and report[-1].isdigit() else None
    if rc and err.startswith("Command exited with non-zero status"):
        err = err.split("\n", 1)[-1]
    out = {"s": round(elapsed, 4), "rss_mb": None if rss is None else round(rss, 1),
           "status": "ok" if rc == 0 else "error", "rc": rc}
    if rc:
        out["error"] = err.strip().splitlines()[-1][:300] if err.strip() else f"exit {rc}"
    return out


def ours(command: str, path: str | Path, *extra: str, timeout: float | None = None) -> dict:
    return run([BUFFERLOG, command, str(path), *extra], timeout)


def theirs(command: str, path: str | Path, timeout: float | None = None) -> dict:
    if MLIR_OPT is None:
        return {"s": None, "rss_mb": None, "status": "missing", "rc": None}
    return run([MLIR_OPT, str(path), *MLIR_JOB[command]], timeout)


def median_run(runs: list[dict]) -> dict:
    """The run with the median time (its RSS with it); status of the worst run."""
    ok = [r for r in runs if r["status"] == "ok"]
    if len(ok) < len(runs):
        bad = next(r for r in runs if r["status"] != "ok")
        return {**bad, "runs": len(runs)}
    ok.sort(key=lambda r: r["s"])
    m = dict(ok[len(ok) // 2])
    m["s"] = round(statistics.median(r["s"] for r in ok), 4)
    m["rss_mb"] = max(r["rss_mb"] for r in ok)
    m["runs"] = len(runs)
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
            "mlir_opt": next((ln.strip() for ln in ver.splitlines() if "version" in ln), None)}


def save(name: str, data: dict) -> Path:
    import json

    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{name}.json"
    out.write_text(json.dumps({"machine": machine(), **data}, indent=2) + "\n")
    return out
