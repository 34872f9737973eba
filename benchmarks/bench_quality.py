"""Output quality: bufferlog bufferize (+ dealloc; oneshot and optimal decisions) vs
mlir-opt-22's reference pipeline, per corpus file and in total.

``python -m benchmarks.bench_quality [--corpus DIR] [--engine auto|souffle|embedded]``

Reference: ``--one-shot-bufferize="bufferize-function-boundaries
function-boundary-type-conversion=identity-layout-map"`` (+ ``allow-return-allocs-from-loops``
when mlir-opt needs it) and ``--buffer-deallocation-pipeline``. Every output -- ours and
mlir-opt's (printed in generic form) -- is counted by the same product function,
``backend/quality.py count_figures``: static counts of allocs, copies, bytes copied
(static shapes; copies of dynamic size are counted apart), clones, runtime dealloc helper
calls, guarded deallocs, deallocs. Corpus: ../shared/corpus/*/*.mlir without the
``.elided`` duplicates. Writes benchmarks/results/quality.json and quality.md and prints
the markdown table.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bufferlog.backend.bufferize import bufferize
from bufferlog.backend.quality import count_figures
from bufferlog.frontend.parser import parse

from benchmarks import SHARED
from bufferlog.core import UserError

CORPUS = SHARED / "corpus"
RESULTS = Path(__file__).resolve().parent / "results"
MLIR_OPT = "mlir-opt-22"
OSB = "bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
SIDES = ("oneshot", "optimal", "mlir-opt")
# (key in count_figures, table header)
SHOWN = [("allocs", "allocs"), ("copies", "copies"), ("bytes_copied", "bytes copied"),
         ("clones", "clones"), ("dealloc_helper_calls", "dealloc helper calls"),
         ("guarded_deallocs", "guarded deallocs"), ("deallocs", "deallocs")]


def corpus_files(root: Path) -> list[Path]:
    return [p for p in sorted(root.glob("*/*.mlir")) if ".elided" not in p.name]


def ours(text: str, name: str, strategy: str, engine: str) -> dict:
    t = time.perf_counter()
    try:
        m = bufferize(parse(text, name), strategy, True, engine=engine)
    except UserError as e:
        return {"status": "error", "error": str(e)}
    return {"status": "ok", "s": round(time.perf_counter() - t, 3), **count_figures(m)}


def reference(text: str, exe: str) -> dict:
    t = time.perf_counter()
    for extra, loops in (("", False), (" allow-return-allocs-from-loops", True)):
        p = subprocess.run([exe, f"--one-shot-bufferize={OSB}{extra}",
                            "--buffer-deallocation-pipeline", "--mlir-print-op-generic"],
                           input=text, capture_output=True, text=True, timeout=300)
        if p.returncode == 0:
            return {"status": "ok", "s": round(time.perf_counter() - t, 3),
                    "allow_return_allocs_from_loops": loops,
                    **count_figures(p.stdout, "<mlir-opt output>")}
    first = next((ln for ln in p.stderr.splitlines() if "error" in ln), p.stderr.strip())
    return {"status": "error", "error": first[:300]}


def _cell(figs: dict, key: str) -> str:
    if figs.get("status") != "ok":
        return "err"
    v = str(figs[key])
    if key == "bytes_copied" and figs["dynamic_copies"]:
        v += f"+{figs['dynamic_copies']}dyn"
    return v


def markdown(rows: list[dict], total: dict) -> str:
    head = "| file | " + " | ".join(h for _, h in SHOWN) + " |"
    out = ["Each cell: bufferlog oneshot / bufferlog optimal / mlir-opt "
           "(`+Ndyn`: N more copies of dynamic size).", "", head,
           "|---" * (len(SHOWN) + 1) + "|"]
    for r in [*rows, total]:
        cells = [" / ".join(_cell(r[s], k) for s in SIDES) for k, _ in SHOWN]
        name = f"**{r['file']}**" if r is total else r["file"]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def totals(rows: list[dict]) -> dict:
    """Sums over the files every side handled (the others are listed as excluded)."""
    both = [r for r in rows if all(r[s]["status"] == "ok" for s in SIDES)]
    tot: dict = {"file": f"total ({len(both)} files)",
                 "excluded": [r["file"] for r in rows if r not in both]}
    for s in SIDES:
        keys = [k for k, v in both[0][s].items() if isinstance(v, int)
                and not isinstance(v, bool)] if both else []
        tot[s] = {"status": "ok", **{k: sum(r[s][k] for r in both) for k in keys}}
    return tot


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--engine", default="auto")
    a = ap.parse_args(argv)
    exe = shutil.which(MLIR_OPT)
    if exe is None:
        print(f"{MLIR_OPT} not installed", file=sys.stderr)
        return 1
    rows = []
    for p in corpus_files(a.corpus):
        text = p.read_text()
        name = f"{p.parent.name}/{p.name}"
        row = {"file": name, "oneshot": ours(text, name, "oneshot", a.engine),
               "optimal": ours(text, name, "optimal", a.engine),
               "mlir-opt": reference(text, exe)}
        rows.append(row)
        print(name, {s: _cell(row[s], "copies") for s in SIDES}, flush=True)
    tot = totals(rows)
    md = markdown(rows, tot)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "quality.json").write_text(json.dumps(
        {"reference": f"--one-shot-bufferize=\"{OSB}\" [+ allow-return-allocs-from-loops] "
                      "--buffer-deallocation-pipeline",
         "counted_by": "bufferlog.backend.quality.count_figures",
         "files": rows, "total": tot}, indent=2) + "\n")
    (RESULTS / "quality.md").write_text(
        "# Output quality: bufferlog vs mlir-opt\n\n"
        "`python -m benchmarks.bench_quality`. bufferlog: `bufferlog bufferize` (+ dealloc) "
        "with `--strategy oneshot` / `optimal`; mlir-opt-22: `--one-shot-bufferize=\"" + OSB
        + "\"` (+ `allow-return-allocs-from-loops` where needed) `--buffer-deallocation-pipeline`. "
        "Static op counts of each output, all by `backend/quality.py count_figures`; corpus "
        "without the `.elided` duplicates.\n\n" + md)
    print(md)
    print(f"wrote {RESULTS / 'quality.json'} and quality.md")
    return 1 if tot["excluded"] else 0


if __name__ == "__main__":
    sys.exit(main())
