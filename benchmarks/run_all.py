"""Run every benchmark in this folder in turn (``make bench``); each writes its JSON to
benchmarks/results/ and prints its own table. Pass module names to run a subset."""

from __future__ import annotations

import importlib
import sys
import time

ALL = ["bench_parse", "bench_engine", "bench_analysis", "bench_batch", "bench_quality"]


def main(argv: list[str]) -> int:
    failed = []
    for name in argv or ALL:
        print(f"== benchmarks.{name}", flush=True)
        t0 = time.perf_counter()
        mod = importlib.import_module(f"benchmarks.{name}")
        saved = sys.argv
        sys.argv = [f"benchmarks.{name}"]
        try:
            rc = mod.main() if hasattr(mod, "main") else 0
        except SystemExit as e:
            rc = e.code
        finally:
            sys.argv = saved
        if rc:
            failed.append(name)
        print(f"== {name}: {time.perf_counter() - t0:.1f} s", flush=True)
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
