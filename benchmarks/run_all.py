"""Run every benchmark in this folder in turn (``make bench``), then regenerate
benchmarks/README.md. First bufferlog is installed as a user installs it
(benchmarks/install.py: a fresh virtual environment, a regular ``pip install``; skipped
with ``--no-install`` or when ``BUFFERLOG_BENCH_EXE`` names the executable to measure).
``--full`` passes the full sizes on; module names run a subset.

    python -m benchmarks.run_all [--full] [--no-install] [bench_startup bench_scaling ...]
"""

from __future__ import annotations

import importlib
import os
import sys
import time

ALL = ["bench_startup", "bench_per_file", "bench_batch", "bench_scaling", "bench_stress",
       "bench_engine", "bench_quality"]
TAKES_FULL = {"bench_scaling", "bench_stress"}


def main(argv: list[str]) -> int:
    full = "--full" in argv
    names = [a for a in argv if a not in ("--full", "--no-install")] or ALL
    if "--no-install" not in argv and not os.environ.get("BUFFERLOG_BENCH_EXE"):
        from benchmarks import install

        print(f"== installed {install.fresh_install()}", flush=True)
    failed = []
    for name in names:
        print(f"== benchmarks.{name}", flush=True)
        t0 = time.perf_counter()
        mod = importlib.import_module(f"benchmarks.{name}")
        try:
            rc = mod.main(["--full"] if full and name in TAKES_FULL else [])
        except SystemExit as e:
            rc = e.code
        if rc:
            failed.append(name)
        print(f"== {name}: {time.perf_counter() - t0:.1f} s", flush=True)
    from benchmarks import report

    report.main([])
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
