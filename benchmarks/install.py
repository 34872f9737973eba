"""The bufferlog the benchmarks measure, installed as a user installs it: a fresh virtual
environment (``build/bench-venv``), the latest pip, and a regular (not editable)
``pip install`` of this checkout, in the environment as it is. pip writes the bytecode
of the installed modules whatever ``PYTHONDONTWRITEBYTECODE`` says; the cache folder
(parser tables, checked rules: the benchmark's own, ``build/bench-cache``) starts empty
and is filled by one run of each command before anything is timed, as any user's first
run fills theirs.

    python -m benchmarks.install        (run_all does it first)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import measure as M

SAMPLE = """\
func.func @f(%a: tensor<4xf32>, %i: index) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %y = tensor.insert %f into %a[%i] : tensor<4xf32>
  return %y, %x : tensor<4xf32>, f32
}
"""


def fresh_install(venv: Path = M.BENCH_VENV, repo: Path = M.ROOT) -> str:
    """Install this checkout into a new ``venv``; the path of its ``bufferlog``."""
    for d in (venv, M.CACHE_DIR):
        if d.exists():
            shutil.rmtree(d)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, str(repo)], check=True)
    exe = venv / "bin" / "bufferlog"
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "sample.mlir"
        f.write_text(SAMPLE)
        for args in (["print"], ["analyze"], ["bufferize"], ["bufferize", "--strategy",
                                                             "optimal"]):
            subprocess.run([str(exe), args[0], str(f), *args[1:]], check=True,
                           stdout=subprocess.DEVNULL, env=M.env())
    return str(exe)


def main(argv: list[str] | None = None) -> int:
    print(f"installed {fresh_install()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
