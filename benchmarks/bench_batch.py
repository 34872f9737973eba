"""Batch throughput against what a user with the same cores would run instead.

    python -m benchmarks.bench_batch [--repeat 5] [--passes 2] [--jobs 2]

Files: the shared corpus and the executable torch models (every file once: nothing is
replicated, so start-up counts as it does for a user). Each side is one timed process,
from spawn to exit, the sides interleaved round by round:

* ``bufferlog batch FILES --jobs N --no-cache -q``, cold (``BUFFERLOG_NO_SERVER=1``: the
  batch loads everything and forks its workers) and warm (through ``bufferlog serve``:
  the batch runs in a process forked from the loaded server, which forks its workers
  from itself);
* ``xargs -0 -P N -n 1 mlir-opt-22 <bufferize + dealloc pipeline>``: N mlir-opt processes
  at a time, one per file (the same cores);
* a sequential shell loop of the same mlir-opt command.

Files per second of each; ratios are bufferlog's files/s over mlir-opt's (above 1:
bufferlog is faster). The measurement is made ``--passes`` times and a ratio claimed
only as the worst pass's. Writes benchmarks/results/batch.json."""

from __future__ import annotations

import argparse
import sys

from benchmarks import SHARED
from benchmarks import measure as M


def files() -> list[str]:
    fs = sorted((SHARED / "corpus").glob("*/*.mlir")) + sorted((SHARED / "torch_exec").glob("*.mlir"))
    return [str(f) for f in fs]


def mlir_xargs(paths: list[str], jobs: int) -> list[str]:
    """One process: xargs running ``jobs`` mlir-opt at a time, one file each."""
    job = " ".join(f"'{a}'" for a in M.MLIR_JOB["bufferize"])
    script = (f'printf "%s\\0" "$@" | xargs -0 -P {jobs} -n 1 {M.MLIR_OPT} {job} '
              "-o /dev/null")
    return ["sh", "-c", script, "sh", *paths]


def mlir_loop(paths: list[str]) -> list[str]:
    """One process: a shell loop running mlir-opt on each file in turn."""
    job = " ".join(f"'{a}'" for a in M.MLIR_JOB["bufferize"])
    return ["sh", "-c", f'for f; do {M.MLIR_OPT} "$f" {job} -o /dev/null || true; done',
            "sh", *paths]


def failing(paths: list[str]) -> list[str]:
    """The files mlir-opt's job rejects (they count as done for both tools)."""
    return [p for p in paths if M.theirs("bufferize", p, timeout=300)["status"] != "ok"]


def one_pass(paths: list[str], jobs: int, repeat: int) -> dict:
    ours = [M.BUFFERLOG, "batch", *paths, "--jobs", str(jobs), "--no-cache", "-q"]

    def warm() -> dict:
        r = M.run(ours, 1800, M.env(warm=True))
        M.settle()
        return r

    def shell(cmd: list[str]) -> dict:
        r = M.run(cmd, 1800)
        if r["status"] == "error" and r["rc"] == 123:  # xargs: some file failed, all ran
            r = {**r, "status": "ok"}
        return r

    with M.server():
        got = M.interleaved({"cold": lambda: M.run(ours, 1800), "warm": warm,
                             "mlir_opt_xargs": lambda: shell(mlir_xargs(paths, jobs)),
                             "mlir_opt_loop": lambda: shell(mlir_loop(paths))}, repeat)
    n = len(paths)
    for r in got.values():
        r["files_per_s"] = round(n / r["s"], 2) if r["status"] == "ok" and r["s"] else None

    def over(a: str, b: str) -> float | None:
        x, y = got[a]["files_per_s"], got[b]["files_per_s"]
        return round(x / y, 3) if x and y else None

    got["ratios"] = {f"{a}_vs_{b}": over(a, b) for a in ("cold", "warm")
                     for b in ("mlir_opt_xargs", "mlir_opt_loop")}
    loads = [x for r in got.values() if isinstance(r, dict) for x in (r.get("load") or [])]
    got["load"] = [min(loads), max(loads)] if loads else None
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_batch")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    paths = files()
    passes = []
    for i in range(a.passes):
        p = one_pass(paths, a.jobs, a.repeat)
        passes.append(p)
        print(f"pass {i + 1}: " + ", ".join(f"{k} {v}" for k, v in p["ratios"].items())
              + f" (load {p['load']})", flush=True)
    claimed = {k: min((p["ratios"][k] for p in passes if p["ratios"][k] is not None),
                      default=None) for k in passes[0]["ratios"]}
    print("claimed (worst pass):", claimed, flush=True)
    out = M.save("batch", {"files": len(paths), "file_list": paths, "jobs": a.jobs,
                           "repeat": a.repeat, "mlir_opt_failed": failing(paths),
                           "claimed": claimed, "passes": passes})
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
