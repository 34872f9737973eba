"""``analyze`` prints what mlir-opt's ``test-analysis-only`` prints: the CHECK lines of
each tests/filecheck/*.mlir, written against mlir-opt-22's output, pass through
FileCheck-22 on both tools' output. Value names are captured (``%[[X:.+]]``): mlir-opt
renames values, bufferlog keeps the input's names.

mlir-opt's spelling of floats is also checked value by value against mlir-opt."""

from __future__ import annotations

import random
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

CASES = sorted((Path(__file__).parent / "filecheck").glob("*.mlir"))
OPTIONS = "bufferize-function-boundaries test-analysis-only print-conflicts"
FILECHECK = shutil.which("FileCheck-22") or shutil.which("FileCheck")

needs_tools = pytest.mark.skipif(not (FILECHECK and oracle.available(run=False)),
                                 reason="needs FileCheck-22 (llvm-22-tools) and mlir-opt-22")


def filecheck(case: Path, output: str) -> subprocess.CompletedProcess:
    return subprocess.run([FILECHECK, str(case)], input=output, capture_output=True, text=True)


def bufferlog_analyze(case: Path, *extra: str) -> str:
    r = subprocess.run([sys.executable, "-m", "bufferlog", "analyze", str(case), *extra],
                       capture_output=True, text=True, cwd=oracle.REPO)
    assert r.returncode == 0, r.stderr
    return r.stdout


@needs_tools
@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_check_lines_pass_on_mlir_opt(case):
    """The CHECK lines are mlir-opt's: they pass on its output."""
    out = oracle.mlir_opt(case, f"--one-shot-bufferize={OPTIONS}")
    r = filecheck(case, out)
    assert r.returncode == 0, r.stderr


@needs_tools
@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_check_lines_pass_on_bufferlog(case):
    r = filecheck(case, bufferlog_analyze(case))
    assert r.returncode == 0, r.stderr


@needs_tools
def test_pasted_option_string_prints_the_same():
    """The same CHECK lines through bufferlog's copy of mlir-opt's option string."""
    case = CASES[0]
    r = filecheck(case, bufferlog_analyze(case, f"--one-shot-bufferize={OPTIONS}"))
    assert r.returncode == 0, r.stderr


def _values(seed: int, n: int) -> list[tuple[str, str, float]]:
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        t = rnd.choice(["f32", "f64"])
        k = rnd.random()
        if k < 0.3:
            v = rnd.randint(-100000, 10**9) / rnd.choice([1, 2, 4, 8, 10, 100, 1000])
        elif k < 0.6:
            v = rnd.uniform(-1, 1) * 10 ** rnd.randint(-12, 12)
        elif k < 0.8:
            v = float(rnd.randint(-10**8, 10**8))
        else:
            v = round(rnd.uniform(-100, 100), rnd.randint(0, 7))
        if t == "f32":
            v = struct.unpack("f", struct.pack("f", v))[0]
        out.append((repr(v), t, v))
    out += [("0x7F800000", "f32", float("inf")), ("-0.0", "f64", -0.0), ("1.0e-7", "f32", 1e-7)]
    return out


@pytest.mark.skipif(not oracle.available(run=False), reason="needs mlir-opt-22")
def test_floats_spelled_as_mlir_opt_spells_them():
    from bufferlog.frontend.opt_style import format_float

    vals = _values(7, 300)
    body = "\n".join(f"  %v{i} = arith.constant {s} : {t}" for i, (s, t, _) in enumerate(vals))
    out = oracle.mlir_opt("func.func @f() {\n" + body + "\n  return\n}\n")
    theirs = re.findall(r"arith.constant (\S+) : f\d+", out)
    assert len(theirs) == len(vals)
    mine = [format_float(v, t) for _, t, v in vals]
    assert [(s, m) for (s, _, _), m, o in zip(vals, mine, theirs, strict=True) if m != o] == []
