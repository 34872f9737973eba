"""Per-file cost: every corpus file through ``bufferlog bufferize|analyze|print`` against
mlir-opt-22 doing the same job (One-Shot + ``--buffer-deallocation-pipeline``; One-Shot
``test-analysis-only print-conflicts``; ``mlir-opt-22 F``), one process per file per run,
three ways interleaved (benchmarks/measure.py):

* cold: ``bufferlog`` as installed, a new process doing everything
  (``BUFFERLOG_NO_SERVER=1``);
* warm: the same command through ``bufferlog serve`` (the client's start-up plus the
  server's work on the file);
* mlir-opt.

Then ``bufferize --strategy optimal`` against ``bufferize`` (both cold) on every file.

The whole measurement is made ``--passes`` times (default 2): a ratio is claimed only as
the worst of the passes, so a rerun reproduces it.

    python -m benchmarks.bench_per_file [--repeat 5] [--passes 2] [--commands bufferize]

Writes benchmarks/results/per_file.json."""

from __future__ import annotations

import argparse
import os
import statistics
import sys

from benchmarks import SHARED
from benchmarks import measure as M

COMMANDS = ("bufferize", "analyze", "print")


def corpus() -> list:
    files = sorted((SHARED / "corpus").glob("*/*.mlir"))
    return [f for f in files if ".elided" not in f.name]


def median(xs: list[float]) -> float | None:
    return round(statistics.median(xs), 4) if xs else None


def one_pass(files: list, commands: list[str], repeat: int) -> dict:
    rows = []
    with M.server():
        for f in files:
            row = {"file": f"{f.parent.name}/{f.name}", "bytes": f.stat().st_size}
            for c in commands:

                def warm(c=c, f=f) -> dict:
                    r = M.ours(c, f, timeout=300, warm=True)
                    M.settle()
                    return r

                got = M.interleaved({"cold": lambda c=c, f=f: M.ours(c, f, timeout=300),
                                     "warm": warm,
                                     "mlir_opt": lambda c=c, f=f: M.theirs(c, f, timeout=300)},
                                    repeat)
                got["cold_ratio"] = M.ratio(got["cold"], got["mlir_opt"])
                got["warm_ratio"] = M.ratio(got["warm"], got["mlir_opt"])
                row[c] = got
            rows.append(row)
            print(row["file"], {c: (row[c]["cold_ratio"], row[c]["warm_ratio"])
                                for c in commands}, flush=True)
    summary = {}
    for c in commands:
        loads = [x for r in rows for k in ("cold", "warm", "mlir_opt")
                 for x in (r[c][k].get("load") or [])]
        summary[c] = {
            "files": len(rows),
            "median_cold_ratio": median([r[c]["cold_ratio"] for r in rows
                                         if r[c]["cold_ratio"] is not None]),
            "median_warm_ratio": median([r[c]["warm_ratio"] for r in rows
                                         if r[c]["warm_ratio"] is not None]),
            "median_cold_s": median([r[c]["cold"]["s"] for r in rows
                                     if r[c]["cold"]["status"] == "ok"]),
            "median_warm_s": median([r[c]["warm"]["s"] for r in rows
                                     if r[c]["warm"]["status"] == "ok"]),
            "median_mlir_opt_s": median([r[c]["mlir_opt"]["s"] for r in rows
                                         if r[c]["mlir_opt"]["status"] == "ok"]),
            "bufferlog_failed": [r["file"] for r in rows if r[c]["cold"]["status"] != "ok"],
            "mlir_opt_failed": [r["file"] for r in rows if r[c]["mlir_opt"]["status"] != "ok"],
            "load": [min(loads), max(loads)] if loads else None,
        }
    return {"summary": summary, "files": rows}


def optimal_pass(files: list, repeat: int) -> dict:
    rows = []
    for f in files:
        got = M.interleaved(
            {"oneshot": lambda f=f: M.ours("bufferize", f, timeout=300),
             "optimal": lambda f=f: M.ours("bufferize", f, "--strategy", "optimal",
                                           timeout=300)}, repeat)
        got["file"] = f"{f.parent.name}/{f.name}"
        got["ratio"] = M.ratio(got["optimal"], got["oneshot"])
        rows.append(got)
        print("optimal", got["file"], got["ratio"], flush=True)
    ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
    loads = [x for r in rows for k in ("oneshot", "optimal") for x in (r[k].get("load") or [])]
    return {"max_ratio": max(ratios) if ratios else None,
            "worst_file": max(rows, key=lambda r: r["ratio"] or 0)["file"] if rows else None,
            "failed": [r["file"] for r in rows if r["ratio"] is None],
            "load": [min(loads), max(loads)] if loads else None, "files": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_per_file")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--commands", default=",".join(COMMANDS))
    ap.add_argument("--no-optimal", dest="optimal", action="store_false")
    a = ap.parse_args(argv)
    commands = a.commands.split(",")
    files = corpus()
    passes = [one_pass(files, commands, a.repeat) for _ in range(a.passes)]
    claimed = {}
    for c in commands:
        per = [p["summary"][c] for p in passes]
        claimed[c] = {k: max((s[k] for s in per if s[k] is not None), default=None)
                      for k in ("median_cold_ratio", "median_warm_ratio")}
        claimed[c]["passes"] = [{k: s[k] for k in ("median_cold_ratio", "median_warm_ratio",
                                                   "load")} for s in per]
        print(c, claimed[c], flush=True)
    optimal = [optimal_pass(files, max(3, a.repeat // 2)) for _ in range(a.passes)] \
        if a.optimal else []
    if optimal:
        claimed["optimal_over_oneshot"] = {
            "max_ratio": max((o["max_ratio"] for o in optimal if o["max_ratio"] is not None),
                             default=None),
            "passes": [{k: o[k] for k in ("max_ratio", "worst_file", "load")} for o in optimal]}
        print("optimal", claimed["optimal_over_oneshot"], flush=True)
    out = M.save("per_file", {
        "repeat": a.repeat, "passes_run": a.passes, "mlir_jobs": M.MLIR_JOB,
        "bufferlog": M.BUFFERLOG,
        "pythondontwritebytecode": os.environ.get("PYTHONDONTWRITEBYTECODE"),
        "claimed": claimed, "passes": passes, "optimal": optimal})
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
