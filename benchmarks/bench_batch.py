"""Batch throughput against what a user would run instead.

    python -m benchmarks.bench_batch [--repeat 5] [--jobs 1,2]

Files: the shared corpus and the executable torch models (every file once: nothing is
replicated, so start-up counts as it does for a user). bufferlog: one
``bufferlog batch FILES --jobs N --no-cache -q`` process, timed from spawn to exit.
mlir-opt: ``mlir-opt-22 F --one-shot-bufferize=... --buffer-deallocation-pipeline`` run
once per file, sequentially, each process timed and summed (not through the batch's own
comparison code). The runs alternate (bufferlog, mlir-opt, ...), medians kept: five
of each by default, as single runs on a shared 2-core machine vary by a third.
Writes benchmarks/results/batch.json (files/s of each side, ratio)."""

from __future__ import annotations

import argparse
import statistics
import sys

from benchmarks import SHARED
from benchmarks import measure as M


def files() -> list[str]:
    fs = sorted((SHARED / "corpus").glob("*/*.mlir")) + sorted((SHARED / "torch_exec").glob("*.mlir"))
    return [str(f) for f in fs]


def mlir_sequential(paths: list[str]) -> dict:
    runs = [M.theirs("bufferize", p, timeout=300) for p in paths]
    return {"s": round(sum(r["s"] for r in runs), 3),
            "failed": [p for p, r in zip(paths, runs, strict=True) if r["status"] != "ok"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_batch")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--jobs", default="1,2")
    a = ap.parse_args(argv)
    paths = files()
    jobs = [int(j) for j in a.jobs.split(",")]
    ours: dict[int, list[dict]] = {j: [] for j in jobs}
    theirs: list[dict] = []
    for _ in range(a.repeat):
        for j in jobs:
            ours[j].append(M.run([M.BUFFERLOG, "batch", *paths, "--jobs", str(j), "--no-cache",
                                  "-q"], timeout=1800))
            theirs.append(mlir_sequential(paths))
    mo_s = statistics.median(r["s"] for r in theirs)
    result = {"files": len(paths), "file_list": paths,
              "mlir_opt_sequential": {"s": mo_s, "files_per_s": round(len(paths) / mo_s, 2),
                                      "failed": theirs[0]["failed"]},
              "bufferlog": {}}
    for j in jobs:
        m = M.median_run(ours[j])
        fps = round(len(paths) / m["s"], 2) if m["status"] == "ok" else None
        result["bufferlog"][f"jobs{j}"] = {**m, "files_per_s": fps,
                                           "vs_mlir_opt": round(fps / (len(paths) / mo_s), 3)
                                           if fps else None}
        print(f"bufferlog batch --jobs {j}: {fps} files/s (status {m['status']})", flush=True)
    print(f"mlir-opt-22 per file, sequential: {result['mlir_opt_sequential']['files_per_s']} "
          "files/s", flush=True)
    print(f"wrote {M.save('batch', result)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
