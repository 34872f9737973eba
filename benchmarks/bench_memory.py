"""Memory use of executed programs: bufferlog bufferize vs mlir-opt-22's pipelines.

``python -m benchmarks.bench_memory [--generated N] [--jobs J] [--engine E] [-- BUFFERIZE FLAGS]``

Programs: the executable torch-mlir models (../shared/torch_exec/*.mlir), the seed
programs with a ``@main`` (../shared/corpus/*/*.mlir) and ``N`` generated ones
(``tests/gen_programs.py generate(seed, 12, dps=True)``, seeds 0..N-1). Each is bufferized
three ways and run under mlir-runner-22 with the counting allocator
(``tests/oracle.py run_program``; ../shared/oracle/memcount.c):

* ``bufferlog``: ``bufferlog bufferize`` (``--strategy oneshot``, the decisions of mlir-opt;
  flags after ``--`` are passed on, e.g. ``-- --no-free-at-last-use``);
* ``mlir-opt``: One-Shot Bufferize (``bufferize-function-boundaries
  function-boundary-type-conversion=identity-layout-map``, plus
  ``allow-return-allocs-from-loops`` when it needs it) and ``--buffer-deallocation-pipeline``;
* ``mlir-opt+hoist``: the same with ``--buffer-hoisting --buffer-loop-hoisting
  --promote-buffers-to-stack`` between the two.

Figures per program and side: ``peak_bytes`` (the most heap bytes held at once),
``allocs`` (heap allocations executed, mlir-opt's include its dealloc helper's
bookkeeping arrays), ``copies`` (static ``memref.copy`` + ``linalg.copy`` +
``bufferization.clone`` ops in the output, ``backend/quality.py count_figures``) and
``bytes_copied`` (static bytes of those copies). Each run must print the values of
mlir-opt's plain pipeline and finish with live == 0 and no double or foreign free; a
program where one does not is listed under ``failures``. Geometric means are taken over
the programs every side ran (a zero counts as 1); ``peak_ratio`` is the geometric mean of
the per-program ratios of peak bytes (bufferlog / reference), over all programs and over
the seeds and models only (the memory target). Writes benchmarks/results/memory.json
and prints the markdown table.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

from benchmarks import SHARED
from benchmarks import measure as M
from tests import gen_programs, oracle

SIDES = ("bufferlog", "mlir-opt", "mlir-opt+hoist")
HOIST = ["--buffer-hoisting", "--buffer-loop-hoisting", "--promote-buffers-to-stack"]
KEYS = ("peak_bytes", "allocs", "copies", "bytes_copied")


def programs(generated: int) -> list[tuple[str, str]]:
    """(name, text) of every program measured."""
    out = [(f"torch/{p.stem}", p.read_text())
           for p in sorted((SHARED / "torch_exec").glob("*.mlir"))]
    for p in sorted((SHARED / "corpus").glob("*/*.mlir")):
        text = p.read_text()
        if "func.func @main" in text and ".elided" not in p.name:
            out.append((f"seed/{p.stem}", text))
    out += [(f"gen/{s}", gen_programs.generate(s, 12, dps=True)) for s in range(generated)]
    return out


def mlir_opt_pipeline(text: str, hoist: bool) -> str:
    last: oracle.OracleError | None = None
    for loops in ("", " allow-return-allocs-from-loops"):
        try:
            return oracle.mlir_opt(text, f"--one-shot-bufferize={oracle.REFERENCE_OSB}{loops}",
                                   *(HOIST if hoist else []), "--buffer-deallocation-pipeline")
        except oracle.OracleError as e:
            last = e
    raise last


def bufferlog_pipeline(text: str, name: str, flags: list[str], engine: str) -> str:
    """``bufferlog bufferize - FLAGS`` as a process (M.BUFFERLOG, the installed command)."""
    p = subprocess.run([M.BUFFERLOG, "bufferize", "-", "--engine", engine, *flags],
                       input=text, capture_output=True, text=True, timeout=600)
    if p.returncode:
        raise RuntimeError(f"{name}: bufferlog exit {p.returncode}: {p.stderr.strip()[-300:]}")
    return p.stdout


def figures(ir: str) -> dict:
    from bufferlog.backend.quality import count_figures

    run = oracle.run_program(ir)
    f = count_figures(oracle.mlir_opt(ir, "--mlir-print-op-generic"), "<memref>")
    return {"peak_bytes": run.peak_bytes, "allocs": run.allocs,
            "copies": f["copies"] + f["clones"], "bytes_copied": f["bytes_copied"],
            "data": run.data, "clean": run.clean,
            "leaks": f"live={run.live} double_frees={run.double_frees} bad_frees={run.bad_frees}"}


def measure_one(job: tuple[str, str, list[str], str]) -> dict:
    name, text, flags, engine = job
    row: dict = {"program": name}
    makers = {"bufferlog": lambda: bufferlog_pipeline(text, name, flags, engine),
              "mlir-opt": lambda: mlir_opt_pipeline(text, False),
              "mlir-opt+hoist": lambda: mlir_opt_pipeline(text, True)}
    for side, make in makers.items():
        try:
            row[side] = figures(make())
        except Exception as e:  # noqa: BLE001 -- a failure is a row of the report
            row[side] = {"error": f"{type(e).__name__}: {str(e).strip()[:300]}"}
    ref = row["mlir-opt"].get("data")
    problems = [f"{side}: {r['error']}" if "error" in r else
                f"{side}: {r['leaks']}" if not r["clean"] else
                f"{side}: printed values differ from mlir-opt's" if r["data"] != ref else ""
                for side, r in ((s, row[s]) for s in SIDES)]
    row["problems"] = [p for p in problems if p]
    for side in SIDES:
        row[side].pop("data", None)
    return row


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(max(v, 1)) for v in values) / len(values)) if values else 0.0


def summarize(rows: list[dict]) -> dict:
    ok = [r for r in rows if all("error" not in r[s] for s in SIDES)]
    out: dict = {"programs": len(rows), "measured": len(ok)}
    for key in KEYS:
        out[key] = {s: round(geomean([r[s][key] for r in ok]), 1) for s in SIDES}
        out[key]["total"] = {s: sum(r[s][key] for r in ok) for s in SIDES}
    corpus = [r for r in ok if not r["program"].startswith("gen/")]
    for key, rows_ in (("peak_ratio", ok), ("peak_ratio_seeds_and_models", corpus)):
        out[key] = {
            ref: round(ratio_geomean([max(r["bufferlog"]["peak_bytes"], 1)
                                      / max(r[ref]["peak_bytes"], 1) for r in rows_]), 3)
            for ref in SIDES[1:]}
    out["more_copies_than_mlir_opt"] = [r["program"] for r in ok
                                        if r["bufferlog"]["copies"] > r["mlir-opt"]["copies"]]
    return out


def ratio_geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else 0.0


def markdown(rows: list[dict], summary: dict) -> str:
    head = "| program | " + " | ".join(
        f"{k} (ours / mlir-opt / +hoist)" for k in KEYS) + " |"
    lines = [head, "|---" * (len(KEYS) + 1) + "|"]
    for r in rows:
        cells = [" / ".join(str(r[s].get(k, "err")) for s in SIDES) for k in KEYS]
        lines.append(f"| {r['program']} | " + " | ".join(cells) + " |")
    lines.append("| **geometric mean** | " + " | ".join(
        " / ".join(str(summary[k][s]) for s in SIDES) for k in KEYS) + " |")
    lines.append("| **total** | " + " | ".join(
        " / ".join(str(summary[k]["total"][s]) for s in SIDES) for k in KEYS) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--generated", type=int, default=30, help="generated programs (seeds 0..N-1)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--engine", default="auto")
    ap.add_argument("--out", default="memory", help="results/<OUT>.json")
    ap.add_argument("flags", nargs="*", help="bufferlog bufferize flags (after --)")
    args = ap.parse_args(argv)
    oracle.require()
    oracle.memcount_library()
    jobs = [(name, text, args.flags, args.engine) for name, text in programs(args.generated)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(measure_one, jobs))
    summary = summarize(rows)
    failures = {r["program"]: r["problems"] for r in rows if r["problems"]}
    M.save(args.out, {"flags": args.flags, "summary": summary, "failures": failures,
                      "rows": rows})
    print(markdown(rows, summary))
    print(json.dumps({k: summary[k] for k in ("programs", "measured", "peak_ratio",
                                              "peak_ratio_seeds_and_models",
                                              "more_copies_than_mlir_opt")}))
    for prog, probs in failures.items():
        print(f"FAIL {prog}: {'; '.join(probs)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
