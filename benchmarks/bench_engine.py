"""Engine benchmark: embedded (clingo) vs Soufflé (when present).

    python -m benchmarks.bench_engine [--facts DIR] [--program MAIN.dl] [--chains 500,2000]

Workloads: the conformance programs (tests/conformance), transitive closure of chains of
500 and 2000 nodes (n(n+1)/2 path tuples), and optionally corpus facts (``--facts``: a
facts dir, or a dir of facts dirs, run through ``--program``, default the shipped rules).
Writes benchmarks/results/engine.json with seconds per engine and souffle/embedded ratios.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from bufferlog.engine import Program, run, souffle

from benchmarks import SHARED

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "conformance"
RESULTS = ROOT / "benchmarks" / "results" / "engine.json"

TC = """\
.decl edge(x: number, y: number)
.input edge
.decl path(x: number, y: number)
.output path
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z).
"""


def engines() -> list[tuple[str, bool]]:
    modes = [("embedded", False)]
    if souffle.find():
        modes += [("souffle", False), ("souffle", True)]
    return modes


def timed(prog: Program, facts, engine: str, compiled: bool, repeat: int) -> dict:
    best, size = float("inf"), 0
    if compiled:  # compile (and cache) outside the timing
        run(prog, facts, engine=engine, compiled=True)
    for _ in range(repeat):
        t = time.perf_counter()
        res = run(prog, facts, engine=engine, compiled=compiled)
        best = min(best, time.perf_counter() - t)
        size = sum(len(v) for v in res.relations.values())
    return {"seconds": round(best, 4), "output_tuples": size}


def workload(name: str, prog: Program, facts, repeat: int) -> dict:
    row: dict = {"workload": name}
    for engine, compiled in engines():
        key = engine + ("-compiled" if compiled else "")
        row[key] = timed(prog, facts, engine, compiled, repeat)
        print(f"  {name:28s} {key:17s} {row[key]['seconds']:8.3f} s "
              f"({row[key]['output_tuples']} tuples)", flush=True)
    emb = row["embedded"]["seconds"]
    row["ratio_vs_embedded"] = {k: round(v["seconds"] / emb, 3) if emb else None
                                for k, v in row.items() if isinstance(v, dict) and k != "embedded"}
    return row


def corpus_dirs(d: Path) -> list[Path]:
    if any(d.glob("*.facts")):
        return [d]
    return sorted(p for p in d.iterdir() if p.is_dir() and any(p.glob("*.facts")))


def export_corpus_facts() -> Path | None:
    """Facts of every shared corpus file (parsed by our frontend) in a temp dir."""
    import tempfile

    from bufferlog.frontend.facts import export
    from bufferlog.frontend.parser import parse

    corpus = SHARED / "corpus"
    files = sorted(p for p in corpus.glob("*/*.mlir") if ".elided" not in p.name) if corpus.is_dir() else []
    if not files:
        return None
    root = Path(tempfile.mkdtemp(prefix="bufferlog-bench-facts-"))
    for f in files:
        export(parse(f.read_text(), str(f))).write_tsv(root / f.stem)
    return root


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_engine")
    ap.add_argument("--facts", type=Path, help="corpus facts dir (or dir of facts dirs)")
    ap.add_argument("--program", type=Path, help="program for --facts (default: shipped rules)")
    ap.add_argument("--chains", default="500,2000", help="chain lengths for transitive closure")
    ap.add_argument("--repeat", type=int, default=3, help="best of N for small workloads")
    ap.add_argument("-o", "--output", type=Path, default=RESULTS)
    args = ap.parse_args(argv)

    print(f"engines: {', '.join(e + ('-compiled' if c else '') for e, c in engines())}")
    rows = []
    for case in sorted(p for p in CONFORMANCE.iterdir() if (p / "prog.dl").is_file()):
        rows.append(workload(f"conformance/{case.name}", Program.load(case / "prog.dl"),
                             case / "facts", args.repeat))
    tc = Program.from_text(TC, "tc.dl")
    for n in (int(x) for x in args.chains.split(",") if x):
        facts = {"edge": [(i, i + 1) for i in range(n)]}
        rows.append(workload(f"tc_chain_{n}", tc, facts, 1 if n > 1000 else args.repeat))
    facts_root = args.facts or export_corpus_facts()
    corpus = "skipped (no --facts and no shared corpus)"
    if facts_root:
        prog = Program.load(args.program) if args.program else Program.shipped()
        dirs = corpus_dirs(facts_root)
        corpus = f"{len(dirs)} facts dir(s) from {facts_root}"
        for d in dirs:
            rows.append(workload(f"corpus/{d.name}", prog, d, 1))
    out = {
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "souffle": souffle.version(souffle.find()) if souffle.find() else None,
        "corpus": corpus,
        "note": "seconds are best-of-N wall time of run() incl. fact validation and I/O; "
                "ratio = engine seconds / embedded seconds",
        "results": rows,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
