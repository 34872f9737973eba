"""Analysis time: bufferlog (oneshot) vs mlir-opt-22 test-analysis-only.

``python -m benchmarks.bench_analysis [--sizes 50,500,5000] [--skip-mlir-above N]``
runs ../shared/oracle/gen_chain.py chains and the corpus; writes
benchmarks/results/analysis.json (seconds, ratios)."""

from __future__ import annotations

import argparse
import glob
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bufferlog.engine.oneshot import analyze_module
from bufferlog.frontend.parser import parse

from benchmarks import SHARED

GEN = str(SHARED / "oracle" / "gen_chain.py")
PIPE = "--one-shot-bufferize=bufferize-function-boundaries test-analysis-only print-conflicts"


def ours(text: str, engine: str) -> float:
    t = time.perf_counter()
    analyze_module(parse(text, "bench"), engine=engine)
    return time.perf_counter() - t


def mlir(text: str) -> float | None:
    exe = shutil.which("mlir-opt-22")
    if exe is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(text)
        f.flush()
        t = time.perf_counter()
        p = subprocess.run([exe, PIPE, f.name], capture_output=True)
        return time.perf_counter() - t if p.returncode == 0 else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="50,500,5000")
    ap.add_argument("--skip-mlir-above", type=int, default=10**9,
                    help="do not time mlir-opt on chains longer than N (5000 takes ~68 s)")
    ap.add_argument("--engine", default="auto")
    a = ap.parse_args(argv)
    rows = []
    for n in map(int, a.sizes.split(",")):
        text = subprocess.run([sys.executable, GEN, str(n)], capture_output=True, text=True).stdout
        text = text.replace("(%ptr : tensor<*xf32>)", "(tensor<*xf32>)")
        ob = ours(text, a.engine)
        om = mlir(text) if n <= a.skip_mlir_above else None
        rows.append({"input": f"gen_chain N={n}", "bufferlog_s": round(ob, 3),
                     "mlir_opt_s": None if om is None else round(om, 3),
                     "ratio": None if not om else round(ob / om, 2)})
        print(rows[-1], flush=True)
    for f in sorted(glob.glob(str(SHARED / "corpus" / "**" / "*.mlir"), recursive=True)):
        text = Path(f).read_text()
        ob, om = ours(text, a.engine), mlir(text)
        rows.append({"input": Path(f).name, "bufferlog_s": round(ob, 3),
                     "mlir_opt_s": None if om is None else round(om, 3),
                     "ratio": None if not om else round(ob / om, 2)})
        print(rows[-1], flush=True)
    out = Path(__file__).resolve().parent / "results" / "analysis.json"
    out.write_text(json.dumps(rows, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
