"""Batch throughput: files/s over the corpus replicated N times (default 50).

    python -m benchmarks.bench_batch [--replicas 50] [--corpus DIR] [--jobs 1,2]

Measures ``run_batch`` with the local executor at each job count (no cache), a rerun
served from a warm cache, and mlir-opt-22 run per file (its analysis + bufferize/dealloc
pipeline, sequentially; skipped when not installed). Writes
benchmarks/results/batch.json with files/s and ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import tempfile
import time
from pathlib import Path

from benchmarks import SHARED
from bufferlog.app import batch as B

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "batch.json"


def default_corpus() -> Path:
    if not (SHARED / "corpus").is_dir():
        raise SystemExit("corpus not found; pass --corpus DIR")
    return SHARED / "corpus"


def replicate(corpus: Path, n: int, dest: Path) -> list[str]:
    files = sorted(corpus.rglob("*.mlir"))
    for k in range(n):
        d = dest / f"r{k:03d}"
        d.mkdir(parents=True)
        for f in files:
            shutil.copy(f, d / f"{f.parent.name}_{f.name}")
    return B.discover([str(dest)])


def timed_batch(files: list[str], jobs: int, cache: B.ResultCache | None = None) -> dict:
    t0 = time.perf_counter()
    res = B.run_batch(files, B.BatchOptions(explain=False), B.LocalExecutor(jobs), cache)
    dt = time.perf_counter() - t0
    status: dict[str, int] = {}
    for r in res.rows:
        status[r["status"]] = status.get(r["status"], 0) + 1
    return {"jobs": jobs, "files": len(files), "seconds": round(dt, 3),
            "files_per_s": round(len(files) / dt, 3), "status": status,
            "cache_hits": res.cache_hits}


def timed_mlir_opt(files: list[str]) -> dict | None:
    if shutil.which("mlir-opt-22") is None:
        return None
    t0 = time.perf_counter()
    ok = 0
    for f in files:
        ok += B.mlir_opt_figures(Path(f).read_text())["mlir_opt_status"] == "ok"
    dt = time.perf_counter() - t0
    return {"jobs": 1, "files": len(files), "seconds": round(dt, 3),
            "files_per_s": round(len(files) / dt, 3), "ok": ok}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicas", type=int, default=50)
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    corpus = args.corpus or default_corpus()
    with tempfile.TemporaryDirectory(prefix="bench_batch_") as tmp:
        files = replicate(corpus, args.replicas, Path(tmp) / "corpus")
        print(f"{len(files)} files ({args.replicas} x {len(files) // args.replicas})", flush=True)
        runs = []
        for j in (int(x) for x in args.jobs.split(",")):
            r = timed_batch(files, j)
            runs.append(r)
            print(f"local jobs={j}: {r['files_per_s']} files/s ({r['seconds']} s)", flush=True)
        cache = B.ResultCache(Path(tmp) / "cache")
        # fill from one replica (all replicas share its contents), then rerun everything:
        # the fill and the rerun are seconds apart, so concurrent rules edits cannot
        # change the rules hash in between
        timed_batch([f for f in files if "/r000/" in f], max(r["jobs"] for r in runs), cache)
        cached = timed_batch(files, 1, cache)
        print(f"cached rerun: {cached['files_per_s']} files/s", flush=True)
        mo = timed_mlir_opt(files)
        if mo:
            print(f"mlir-opt per file: {mo['files_per_s']} files/s ({mo['seconds']} s)", flush=True)
    by_j = {r["jobs"]: r for r in runs}
    ratios = {}
    if 1 in by_j and 2 in by_j:
        ratios["jobs2_over_jobs1"] = round(by_j[2]["files_per_s"] / by_j[1]["files_per_s"], 3)
    if 1 in by_j:
        ratios["cached_over_jobs1"] = round(cached["files_per_s"] / by_j[1]["files_per_s"], 1)
        if mo:
            ratios["bufferlog_jobs1_over_mlir_opt"] = round(
                by_j[1]["files_per_s"] / mo["files_per_s"], 3)
    out = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                       "platform": platform.platform()},
           "replicas": args.replicas, "files": len(files), "local": runs,
           "cached_rerun": cached, "mlir_opt_per_file": mo, "ratios": ratios}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(ratios))


if __name__ == "__main__":
    main()
