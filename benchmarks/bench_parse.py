"""Parse+print throughput over the shared corpus: bufferlog (in process, steady state
after one warm-up pass) vs ``mlir-opt-22 F`` (one process per file, so it includes process start-up).

Run: ``python -m benchmarks.bench_parse [--repeat N] [--corpus DIR]``. Prints a table and
the ratio, writes ``benchmarks/results/parse.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import time
from pathlib import Path

from bufferlog.frontend.lalr import grammar as get_lark
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module

from benchmarks import SHARED

REPO = Path(__file__).resolve().parent.parent


def default_corpus() -> Path:
    return SHARED / "corpus"


def bench_file(path: Path, repeat: int, mlir_opt: str | None) -> dict:
    text = path.read_text()
    n_ops = sum(1 for _ in parse(text, str(path)).walk()) - 1  # minus the module
    t0 = time.perf_counter()
    for _ in range(repeat):
        print_module(parse(text, str(path)))
    ours = (time.perf_counter() - t0) / repeat
    theirs = None
    if mlir_opt:
        t0 = time.perf_counter()
        for _ in range(repeat):
            subprocess.run([mlir_opt, str(path)], check=True, capture_output=True)
        theirs = (time.perf_counter() - t0) / repeat
    return {"file": f"{path.parent.name}/{path.name}", "bytes": len(text), "ops": n_ops,
            "bufferlog_s": ours, "mlir_opt_s": theirs}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--corpus", type=Path, default=default_corpus())
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "parse.json")
    args = ap.parse_args(argv)
    files = sorted(args.corpus.glob("*/*.mlir"))
    if not files:
        print(f"no corpus under {args.corpus}")
        return 1
    mlir_opt = shutil.which(os.environ.get("MLIR_OPT", "mlir-opt-22"))
    t0 = time.perf_counter()
    get_lark()
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for f in files:  # warm-up: lark builds each parser state's scanner on first use
        print_module(parse(f.read_text(), str(f)))
    warm_s = time.perf_counter() - t0
    rows = [bench_file(f, args.repeat, mlir_opt) for f in files]

    print(f"{'file':42} {'ops':>5} {'bufferlog ms':>13} {'mlir-opt ms':>12} {'ratio':>6}")
    for r in rows:
        mo = r["mlir_opt_s"]
        ratio = f"{r['bufferlog_s'] / mo:6.2f}" if mo else "   n/a"
        mo_ms = f"{mo * 1e3:12.2f}" if mo else f"{'n/a':>12}"
        print(f"{r['file']:42} {r['ops']:5d} {r['bufferlog_s'] * 1e3:13.2f} {mo_ms} {ratio}")
    n_files, n_ops = len(rows), sum(r["ops"] for r in rows)
    ours = sum(r["bufferlog_s"] for r in rows)
    summary = {"files": n_files, "ops": n_ops, "grammar_load_s": load_s,
               "cold_first_pass_s": warm_s,
               "bufferlog": {"total_s": ours, "files_per_s": n_files / ours,
                             "ops_per_s": n_ops / ours}}
    print(f"\nbufferlog parse+print: {n_files / ours:8.1f} files/s {n_ops / ours:10.0f} ops/s"
          f"  (steady state; grammar load {load_s:.2f} s and cold first pass"
          f" {warm_s:.2f} s once per process)")
    if mlir_opt:
        theirs = sum(r["mlir_opt_s"] for r in rows)
        summary["mlir_opt"] = {"total_s": theirs, "files_per_s": n_files / theirs,
                               "ops_per_s": n_ops / theirs}
        summary["ratio_bufferlog_over_mlir_opt"] = ours / theirs
        print(f"mlir-opt-22 F:         {n_files / theirs:8.1f} files/s {n_ops / theirs:10.0f} ops/s"
              f"  (process per file)")
        print(f"time ratio bufferlog / mlir-opt: {ours / theirs:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "files": rows, "repeat": args.repeat,
                                    "python": platform.python_version(),
                                    "mlir_opt": mlir_opt}, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
