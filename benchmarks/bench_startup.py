"""Start-up: what a process pays before its input matters.

    python -m benchmarks.bench_startup [--repeat 7]

* wall time of ``python -c pass`` (the interpreter alone), ``bufferlog print`` /
  ``analyze`` / ``bufferize`` of a two-op file, and ``mlir-opt-22`` on it (its print job),
  interleaved, medians;
* ``python -X importtime``: total import time per command and the heaviest top-level
  packages, and whether z3 / clingo / dask / rich / lark were imported at all
  (``print`` needs none of them).

Writes benchmarks/results/startup.json."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import measure as M

TINY = "func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {\n  return %t : tensor<4xf32>\n}\n"
HEAVY = ("z3", "clingo", "dask", "rich", "lark")
_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def importtime(command: str, path: Path) -> dict:
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "bufferlog.cli", command,
                        str(path)], capture_output=True, text=True, env=M.env())
    top: dict[str, int] = {}
    seen = set()
    for m in _LINE.finditer(p.stderr):
        cumulative, indent, name = int(m[2]), len(m[3]), m[4]
        seen.add(name)
        if indent == 1:  # imported by the program itself (not by another module)
            top[name] = top.get(name, 0) + cumulative
    heaviest = sorted(top.items(), key=lambda kv: -kv[1])[:8]
    return {"total_ms": round(sum(top.values()) / 1000, 1),
            "heaviest_ms": {k: round(v / 1000, 1) for k, v in heaviest},
            "imported": {h: h in seen for h in HEAVY}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_startup")
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "tiny.mlir"
        f.write_text(TINY)
        M.run([M.BUFFERLOG, "print", str(f)])  # warm: parser tables and bytecode cached
        python = M.median_run([M.run([sys.executable, "-c", "pass"]) for _ in range(a.repeat)])
        runs = {c: M.compare(c, f, a.repeat) for c in ("print", "analyze", "bufferize")}
        imports = {c: importtime(c, f) for c in ("print", "analyze", "bufferize")}
    for c in runs:
        print(c, runs[c]["bufferlog"]["s"], "s vs mlir-opt", runs[c]["mlir_opt"]["s"], "s;",
              "imports", imports[c], flush=True)
    out = M.save("startup", {"python_pass_s": python["s"], "runs": runs, "imports": imports})
    print(f"python -c pass: {python['s']} s\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
