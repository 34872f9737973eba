"""Per-file cost: every corpus file through ``bufferlog print|analyze|bufferize`` against
mlir-opt-22 doing the same job (``mlir-opt-22 F``; One-Shot ``test-analysis-only
print-conflicts``; One-Shot + ``--buffer-deallocation-pipeline``), one process per file
per run, interleaved (benchmarks/measure.py).

    python -m benchmarks.bench_per_file [--repeat 3] [--commands print,analyze,bufferize]

Writes benchmarks/results/per_file.json: per file and command the median seconds and
peak RSS of both tools and their ratio; per command the median ratio over the files
both tools handle."""

from __future__ import annotations

import argparse
import statistics
import sys

from benchmarks import SHARED
from benchmarks import measure as M

COMMANDS = ("print", "analyze", "bufferize")


def corpus() -> list:
    files = sorted((SHARED / "corpus").glob("*/*.mlir"))
    return [f for f in files if ".elided" not in f.name]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_per_file")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--commands", default=",".join(COMMANDS))
    a = ap.parse_args(argv)
    commands = a.commands.split(",")
    rows = []
    for f in corpus():
        row = {"file": f"{f.parent.name}/{f.name}", "bytes": f.stat().st_size}
        for c in commands:
            row[c] = M.compare(c, f, a.repeat, timeout=300)
        rows.append(row)
        print(row["file"], {c: row[c]["ratio"] for c in commands}, flush=True)
    summary = {}
    for c in commands:
        ratios = [r[c]["ratio"] for r in rows if r[c]["ratio"] is not None]
        ours = [r[c]["bufferlog"]["s"] for r in rows if r[c]["bufferlog"]["status"] == "ok"]
        theirs = [r[c]["mlir_opt"]["s"] for r in rows if r[c]["mlir_opt"]["status"] == "ok"]
        summary[c] = {
            "files": len(rows), "compared": len(ratios),
            "median_ratio": round(statistics.median(ratios), 3) if ratios else None,
            "max_ratio": max(ratios) if ratios else None,
            "median_bufferlog_s": round(statistics.median(ours), 3) if ours else None,
            "median_mlir_opt_s": round(statistics.median(theirs), 3) if theirs else None,
            "bufferlog_failed": [r["file"] for r in rows
                                 if r[c]["bufferlog"]["status"] != "ok"],
            "mlir_opt_failed": [r["file"] for r in rows if r[c]["mlir_opt"]["status"] != "ok"],
        }
        print(c, summary[c], flush=True)
    out = M.save("per_file", {"repeat": a.repeat, "mlir_jobs": M.MLIR_JOB,
                              "summary": summary, "files": rows})
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
