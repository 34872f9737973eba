"""What deallocation costs at run time: ``bufferlog dealloc`` vs mlir-opt-22's
``--buffer-deallocation-pipeline`` on the never-worse suite.

``python -m benchmarks.bench_dealloc_cost [--jobs J] [--trips 1,100]``

Programs: every program of tests/test_dealloc_shapes.py's suite with a ``@main``
(tests/dealloc/shapes, tests/dealloc). A program with an ``scf.for`` runs with its
outermost loops set to each trip count (1 and 100 by default: what a strategy pays per
iteration shows), others once as written; both tools deallocate the same program. Each
output runs under mlir-runner-22 instrumented by tests/runtime_cost.py: ``alloc_bytes``
(everything the heap was asked for), ``book`` (the part mlir-opt's dealloc helper spends
on its pointer and flag arrays), ``copy_bytes`` (memref.copy, linalg.copy and clones),
``checks`` (guarded frees and pointer comparisons executed). Counts, not times: the
machine's load does not matter.

Writes benchmarks/results/dealloc_cost.json and .md (the table of docs/deallocation.md)
and exits 1 if bufferlog allocates or copies more bytes than mlir-opt on any program, or
a run prints other values than mlir-opt's or is not clean.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks import measure as M
from tests import runtime_cost as rc

REPO = Path(__file__).resolve().parent.parent
KEYS = ("alloc_bytes", "bookkeeping_bytes", "copy_bytes", "checks")


def programs() -> list[Path]:
    from tests.test_dealloc_shapes import SUITE

    return [p for p in SUITE if "@main" in p.read_text()]


def jobs(trips: tuple[int, ...]) -> list[tuple[str, int | None]]:
    out = []
    for p in programs():
        text = p.read_text()
        out += [(str(p), n) for n in trips] if "scf.for" in text else [(str(p), None)]
    return out


def figures(c: rc.Cost) -> dict:
    return {k: getattr(c, k) for k in KEYS} | {"clean": c.clean}


def measure_one(job: tuple[str, int | None]) -> dict:
    from bufferlog.backend.dealloc import deallocate
    from bufferlog.frontend.parser import parse
    from bufferlog.frontend.printer import print_module

    path, trips = job
    text = Path(path).read_text()
    if trips:
        text = rc.with_trip_count(text, trips)
    row: dict = {"program": Path(path).stem, "trips": trips}
    values = {}
    try:
        m = parse(text, path)
        deallocate(m)
        c = rc.measure(print_module(m))
        row["bufferlog"], values["bufferlog"] = figures(c), c.values
    except Exception as e:  # noqa: BLE001 -- a failure is a row of the report
        row["bufferlog"] = {"error": f"{type(e).__name__}: {str(e)[-300:]}"}
    ref = rc.mlir_opt_dealloc(text)
    if ref is None:
        row["mlir-opt"] = {"error": "refuses the input (frees already in it)"}
    else:
        try:
            c = rc.measure(ref)
            row["mlir-opt"], values["mlir-opt"] = figures(c), c.values
        except Exception as e:  # noqa: BLE001
            row["mlir-opt"] = {"error": f"output cannot be run: {str(e)[-200:]}"}
    row["same_values"] = len(values) < 2 or values["bufferlog"] == values["mlir-opt"]
    return row


def summarize(rows: list[dict]) -> dict:
    both = [r for r in rows if "error" not in r["bufferlog"] and "error" not in r["mlir-opt"]]

    def total(side: str, key: str, rows_: list[dict]) -> int:
        return sum(r[side][key] for r in rows_)

    out: dict = {"runs": len(rows), "compared": len(both)}
    for trips in sorted({r["trips"] or 0 for r in both}):
        sel = [r for r in both if (r["trips"] or 0) == trips]
        out[f"trips={trips or 'as written'}"] = {
            k: {s: total(s, k, sel) for s in ("bufferlog", "mlir-opt")} for k in KEYS}
    data = lambda r, s: r[s]["alloc_bytes"] - r[s]["bookkeeping_bytes"]  # noqa: E731
    out["more_alloc_bytes"] = [f"{r['program']}@{r['trips']}" for r in both
                               if r["bufferlog"]["alloc_bytes"] > r["mlir-opt"]["alloc_bytes"]
                               or data(r, "bufferlog") > data(r, "mlir-opt")]
    out["more_copy_bytes"] = [f"{r['program']}@{r['trips']}" for r in both
                              if r["bufferlog"]["copy_bytes"] > r["mlir-opt"]["copy_bytes"]]
    out["more_checks"] = [f"{r['program']}@{r['trips']}" for r in both
                          if r["bufferlog"]["checks"] > r["mlir-opt"]["checks"]]
    out["problems"] = [f"{r['program']}@{r['trips']}: " + (
        r["bufferlog"].get("error") or ("not clean" if not r["bufferlog"]["clean"] else "values differ"))
        for r in rows if "error" in r["bufferlog"] or not r["bufferlog"]["clean"] or not r["same_values"]]
    return out


def markdown(rows: list[dict], summary: dict) -> str:
    lines = ["| program | iterations | bytes allocated (of which bookkeeping) | bytes copied | checks |",
             "|---|---|---|---|---|"]

    def cell(r: dict, key: str) -> str:
        a, b = r["bufferlog"], r["mlir-opt"]
        if "error" in a:
            return "error"
        if key == "alloc_bytes":
            fa = f"{a['alloc_bytes']} ({a['bookkeeping_bytes']})"
            fb = f"{b['alloc_bytes']} ({b['bookkeeping_bytes']})" if "error" not in b else "-"
            return f"{fa} / {fb}"
        return f"{a[key]} / {b[key] if 'error' not in b else '-'}"

    for r in rows:
        lines.append(f"| {r['program']} | {r['trips'] or 'as written'} | " + " | ".join(
            cell(r, k) for k in ("alloc_bytes", "copy_bytes", "checks")) + " |")
    for name, t in summary.items():
        if name.startswith("trips="):
            lines.append(f"| **total, {name[6:]}** | | {t['alloc_bytes']['bufferlog']} "
                         f"({t['bookkeeping_bytes']['bufferlog']}) / {t['alloc_bytes']['mlir-opt']} "
                         f"({t['bookkeeping_bytes']['mlir-opt']}) | {t['copy_bytes']['bufferlog']} / "
                         f"{t['copy_bytes']['mlir-opt']} | {t['checks']['bufferlog']} / "
                         f"{t['checks']['mlir-opt']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--trips", default="1,100", help="iterations of the outermost loops")
    args = ap.parse_args(argv)
    trips = tuple(int(x) for x in args.trips.split(","))
    rc.oracle.require()
    rc.library()
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(measure_one, jobs(trips)))
    summary = summarize(rows)
    M.save("dealloc_cost", {"trips": trips, "summary": summary, "rows": rows})
    table = markdown(rows, summary)
    (M.RESULTS / "dealloc_cost.md").write_text(table + "\n")
    print(table)
    print(json.dumps({k: v for k, v in summary.items() if not k.startswith("trips=")}, indent=1))
    bad = summary["more_alloc_bytes"] or summary["more_copy_bytes"] or summary["problems"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
