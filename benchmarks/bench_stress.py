"""Big and deep inputs: time and peak memory of bufferlog against mlir-opt-22's same job.

    python -m benchmarks.bench_stress [--full] [--timeout S]

Inputs (benchmarks/gen_stress.py):
* 1,000 nested ``scf.if`` (``--full``: and 2,000): print, analyze, bufferize (the
  analysis grows linearly with the depth; benchmarks/bench_shapes.py measures its
  growth and CPU time);
* one dense literal of 20 MB: print, facts (the frontend part of analyze), bufferize
  (``--full``: a 50 MB one, print and bufferize);
* 5 MB of small functions: print, facts, analyze and bufferize (by parts: more than
  ``--split-ops`` ops); 1 MB of them: analyze, bufferize; ``--full``: 50 MB, print;
* slices and shapes above 2^31 (a 32-bit fact column): analyze and bufferize work.

``facts`` has no mlir-opt job of its own; it is set against mlir-opt's analysis job
(parse, verify, analyse), which includes what it does. Writes
benchmarks/results/stress.json."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from benchmarks import gen_stress
from benchmarks import measure as M

BIG_SLICE = """func.func @main(%a: tensor<?xf32>, %v: f32) -> (tensor<2147483648xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %s = tensor.extract_slice %a[1099511627776] [2147483648] [1] : tensor<?xf32> to tensor<2147483648xf32>
  %w = tensor.insert %v into %s[%c0] : tensor<2147483648xf32>
  %r = tensor.insert_slice %w into %a[2199023255552] [2147483648] [1] : tensor<2147483648xf32> into tensor<?xf32>
  return %s, %r : tensor<2147483648xf32>, tensor<?xf32>
}
"""


def case(path: Path, commands: list[str], timeout: float) -> dict:
    out: dict = {"bytes": path.stat().st_size}
    for c in commands:
        if c == "facts":
            mine = M.ours("facts", path, "-o", str(path.with_suffix(".facts")), timeout=timeout)
            other = M.theirs("analyze", path, timeout=timeout)
            out[c] = {"bufferlog": mine, "mlir_opt": other, "mlir_opt_job": "analyze",
                      "ratio": M.ratio(mine, other), "rss_ratio": M.ratio(mine, other, "rss_mb")}
        else:
            out[c] = M.compare(c, path, timeout=timeout)
        b, m = out[c]["bufferlog"], out[c]["mlir_opt"]
        print(f"{path.name} {c}: bufferlog {b['status']} {b['s']} s {b['rss_mb']} MB | "
              f"mlir-opt {m['status']} {m['s']} s {m['rss_mb']} MB", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_stress")
    ap.add_argument("--full", action="store_true", help="also the 2,000-deep and 50 MB inputs")
    ap.add_argument("--timeout", type=float, default=None,
                    help="per process, seconds (default 120, with --full 600)")
    a = ap.parse_args(argv)
    a.timeout = a.timeout or (600 if a.full else 120)
    cases = [("nested_if", 1000, ["print", "analyze", "bufferize"]),
             ("dense_mb", 20, ["print", "facts", "bufferize"]),
             ("small_funcs_mb", 5, ["print", "facts", "analyze", "bufferize"]),
             ("small_funcs_mb", 1, ["analyze", "bufferize"])]
    if a.full:
        cases += [("nested_if", 2000, ["print", "analyze", "bufferize"]),
                  ("dense_mb", 50, ["print", "bufferize"]),
                  ("small_funcs_mb", 50, ["print"])]
    out: dict = {"full": a.full, "timeout_s": a.timeout, "cases": {}}
    with tempfile.TemporaryDirectory(prefix="bench_stress_") as d:
        for shape, n, commands in cases:
            p = Path(d) / f"{shape}_{n}.mlir"
            p.write_text(gen_stress.SHAPES[shape](n))
            out["cases"][f"{shape} {n}"] = case(p, commands, a.timeout)
        p = Path(d) / "big_slice.mlir"
        p.write_text(BIG_SLICE)
        out["cases"]["slices above 2^31"] = case(p, ["analyze", "bufferize"], a.timeout)
    print(f"wrote {M.save('stress', out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
