"""Nesting and many small functions against mlir-opt-22, in CPU time and peak memory.

    python -m benchmarks.run_all bench_shapes      (installs bufferlog first, then this)
    python -m benchmarks.bench_shapes [--quick] [--repeat N] [--only nesting|functions|chain]
                                      [--timeout S]

It measures the executable the other benchmarks do (benchmarks/measure.py ``BUFFERLOG``:
the fresh install of benchmarks/install.py, or ``BUFFERLOG_BENCH_EXE``), in their
environment.

* nested ``scf.if`` (benchmarks/gen_stress.py ``nested_if``) at depths 500, 1,000 and
  2,000: ``analyze`` and ``bufferize``; the ratio to mlir-opt (time and memory) at each
  depth and the growth exponent of each tool over the three (least-squares slope of log
  time, or log peak memory, over log depth). Targets: time <= mlir-opt's, memory <= 2x
  mlir-opt's, both exponents <= 1.2.
* many small functions, 1 and 5 MB, two generators (``small_funcs_mb``: five tensor ops
  a function; ``tiny_funcs_mb``: twice the functions per MB, half of them without
  tensors): ``analyze`` and ``bufferize``. Targets: time <= 2x mlir-opt's, memory
  <= 1.5x.
* the 10,000-op chain (``chain``), ``analyze``: the rules must not slow it (target
  <= 0.1x mlir-opt's).

Every figure is the median of ``--repeat`` rounds (default 3), the two tools alternating
within a round, each run a whole process started by ``/usr/bin/time``: CPU time
(user + system, what this process and its children used: on a shared machine it moves
less than wall time) and peak resident memory; wall time is kept too. The load average
is recorded before and after each row. ``--quick``: depths 500 and 1,000, 1 MB only, one
round (a smoke run, not a figure to quote). Writes benchmarks/results/shapes.json (with
``--only``, the other sections of the file stay) and prints a table.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks import gen_stress
from benchmarks import measure as M


def run(cmd: list[str], timeout: float) -> dict:
    """One process: CPU seconds (user + sys), wall seconds, peak RSS in MB, status. The
    wait blocks (no polling: ``subprocess.run(timeout=...)`` sleeps up to 50 ms between
    polls); a timer kills the process group past ``timeout``."""
    with tempfile.NamedTemporaryFile("r") as rep, tempfile.TemporaryFile() as errf, \
            open(os.devnull, "wb") as null:
        t0 = time.perf_counter()
        p = subprocess.Popen([M.TIME, "-f", "%U %S %M", "-o", rep.name, *cmd], stdout=null,
                             stderr=errf, stdin=subprocess.DEVNULL, env=M.env(),
                             start_new_session=True)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        rc = p.wait()
        wall = time.perf_counter() - t0
        timer.cancel()
        if killed.is_set():
            return {"cpu": None, "wall": round(wall, 3), "rss_mb": None, "status": "timeout"}
        fields = rep.read().split()[-3:]
        errf.seek(0)
        err = errf.read().decode(errors="replace").strip().splitlines()
    if rc or len(fields) != 3:
        return {"cpu": None, "wall": round(wall, 3), "rss_mb": None, "status": "error",
                "error": err[-1][:300] if err else f"exit {rc}"}
    user, sys_, rss = float(fields[0]), float(fields[1]), int(fields[2])
    return {"cpu": round(user + sys_, 3), "wall": round(wall, 3), "rss_mb": round(rss / 1024, 1),
            "status": "ok"}


def ours(command: str, path: Path, timeout: float) -> dict:
    return run([M.BUFFERLOG, command, str(path)], timeout)


def theirs(command: str, path: Path, timeout: float) -> dict:
    if M.MLIR_OPT is None:
        return {"cpu": None, "wall": None, "rss_mb": None, "status": "missing"}
    return run([M.MLIR_OPT, str(path), *M.MLIR_JOB[command]], timeout)


def median(runs: list[dict]) -> dict:
    """Medians of CPU time, wall time and peak memory over the runs (all must be ok)."""
    bad = [r for r in runs if r["status"] != "ok"]
    if bad:
        return {**bad[0], "runs": len(runs)}
    return {"cpu": round(statistics.median(r["cpu"] for r in runs), 3),
            "wall": round(statistics.median(r["wall"] for r in runs), 3),
            "rss_mb": round(statistics.median(r["rss_mb"] for r in runs), 1),
            "status": "ok", "runs": len(runs)}


def ratio(a: dict, b: dict, key: str) -> float | None:
    if a["status"] != "ok" or b["status"] != "ok" or not b.get(key):
        return None
    return round(a[key] / b[key], 3)


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def compare(command: str, path: Path, repeat: int, timeout: float) -> dict:
    """``repeat`` rounds of bufferlog then mlir-opt on ``path``; medians and ratios."""
    before = load()
    a, b = [], []
    for _ in range(repeat):
        a.append(ours(command, path, timeout))
        b.append(theirs(command, path, timeout))
        if a[-1]["status"] != "ok" and b[-1]["status"] != "ok":
            break
    mine, other = median(a), median(b)
    return {"bufferlog": mine, "mlir_opt": other, "cpu_ratio": ratio(mine, other, "cpu"),
            "wall_ratio": ratio(mine, other, "wall"), "rss_ratio": ratio(mine, other, "rss_mb"),
            "load_before": before, "load_after": load()}


def exponent(points: list[tuple[float, float | None]]) -> float | None:
    """Least-squares slope of log(y) over log(x) (None with fewer than two points)."""
    pts = [(math.log(x), math.log(y)) for x, y in points if y]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return round(sum((x - mx) * (y - my) for x, y in pts) / den, 2) if den else None


def show(name: str, row: dict) -> None:
    b, m = row["bufferlog"], row["mlir_opt"]
    print(f"{name:34} bufferlog {b['status']:>7} cpu {b['cpu']} s, {b['rss_mb']} MB | mlir-opt "
          f"cpu {m['cpu']} s, {m['rss_mb']} MB | cpu x{row['cpu_ratio']} mem x{row['rss_ratio']} "
          f"| load {row['load_before']}", flush=True)


def nesting(tmp: Path, depths: list[int], repeat: int, timeout: float) -> dict:
    out: dict = {"depths": {}}
    for n in depths:
        p = tmp / f"nested_if_{n}.mlir"
        p.write_text(gen_stress.nested_if(n))
        out["depths"][str(n)] = {}
        for c in ("analyze", "bufferize"):
            row = out["depths"][str(n)][c] = compare(c, p, repeat, timeout)
            show(f"nested_if {n} {c}", row)
    for c in ("analyze", "bufferize"):
        for tool in ("bufferlog", "mlir_opt"):
            rows = [(int(n), r[c][tool]) for n, r in out["depths"].items()]
            out[f"{c}_{tool}_exponent"] = {
                "cpu": exponent([(n, r["cpu"]) for n, r in rows]),
                "rss": exponent([(n, r["rss_mb"]) for n, r in rows])}
        print(f"nested_if {c} growth exponents: bufferlog {out[f'{c}_bufferlog_exponent']}, "
              f"mlir-opt {out[f'{c}_mlir_opt_exponent']}", flush=True)
    return out


def functions(tmp: Path, sizes: list[float], repeat: int, timeout: float) -> dict:
    out: dict = {}
    for shape in ("small_funcs_mb", "tiny_funcs_mb"):
        for mb in sizes:
            p = tmp / f"{shape}_{mb:g}.mlir"
            text = gen_stress.SHAPES[shape](mb)
            p.write_text(text)
            key = f"{shape} {mb:g}"
            out[key] = {"functions": text.count("func.func ")}
            for c in ("analyze", "bufferize"):
                row = out[key][c] = compare(c, p, repeat, timeout)
                show(f"{key} {c}", row)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_shapes")
    ap.add_argument("--quick", action="store_true", help="smaller sizes, one round")
    ap.add_argument("--repeat", type=int, default=None, help="rounds per row (default 3)")
    ap.add_argument("--only", choices=["nesting", "functions", "chain"], action="append")
    ap.add_argument("--timeout", type=float, default=600, help="per process, seconds")
    a = ap.parse_args(argv)
    repeat = a.repeat or (1 if a.quick else 3)
    only = set(a.only or ["nesting", "functions", "chain"])
    out: dict = {"repeat": repeat, "quick": a.quick, "timing": "CPU seconds (user + sys) and "
                 "peak RSS of each process, medians of interleaved rounds"}
    with tempfile.TemporaryDirectory(prefix="bench_shapes_") as d:
        tmp = Path(d)
        if "nesting" in only:
            out["nesting"] = nesting(tmp, [500, 1000] if a.quick else [500, 1000, 2000],
                                     repeat, a.timeout)
        if "functions" in only:
            out["functions"] = functions(tmp, [1] if a.quick else [1, 5], repeat, a.timeout)
        if "chain" in only:
            p = tmp / "chain_10000.mlir"
            p.write_text(gen_stress.chain(10000))
            out["chain_10000"] = compare("analyze", p, repeat, a.timeout)
            show("chain 10000 analyze", out["chain_10000"])
    if a.only:  # a partial run keeps the other sections of the last full one
        import json

        last = M.RESULTS / "shapes.json"
        if last.exists():
            kept = json.loads(last.read_text())
            kept.pop("machine", None)
            out = {**kept, **out}
    print(f"wrote {M.save('shapes', out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
