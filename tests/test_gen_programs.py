"""Self-test of the random program generator (tests/gen_programs.py) against mlir-opt.

For each seed: the program parses, the reference pipeline runs it with a clean allocation
count, and its output equals the copy-before-write semantic reference's.  A difference
would be an mlir-opt miscompile (DESIGN.md §5): the generator avoids the three known ones,
and ``known_miscompile_programs`` must still show each of them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

try:
    from tests import gen_programs, oracle
except ImportError:  # tests/ on sys.path (pytest rootdir-relative import)
    import gen_programs
    import oracle

needs_tools = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")

SEEDS = range(20)
SIZE = 8


def check_program(text: str) -> None:
    # The reference pipeline parses and verifies the program; both pipelines run in
    # parallel (each is a chain of subprocesses).
    with ThreadPoolExecutor(2) as pool:
        fref = pool.submit(oracle.run_reference, text)
        fsem = pool.submit(oracle.run_semantic, text)
        ref, sem = fref.result(), fsem.result()
    assert ref.returncode == 0, ref.stderr[-2000:]
    assert ref.clean, (ref.allocs, ref.frees, ref.live, ref.double_frees, ref.bad_frees)
    assert ref.data, "the program printed nothing"
    assert not re.search(r"nan|inf", ref.data, re.I), "non-finite values"
    assert sem.clean, (sem.allocs, sem.frees, sem.live, sem.double_frees, sem.bad_frees)
    assert ref.data == sem.data, "reference and copy-before-write outputs differ"


def test_deterministic_and_seed_dependent():
    assert gen_programs.generate(3, 10) == gen_programs.generate(3, 10)
    assert gen_programs.generate(3, 10) != gen_programs.generate(4, 10)


def test_variety():
    text = "\n".join(gen_programs.generate(s, 12) for s in range(30))
    for op in ["tensor.empty", "linalg.fill", "tensor.insert ", "tensor.extract ",
               "linalg.add", "linalg.sub", "linalg.mul", "linalg.copy", "linalg.generic",
               "linalg.matmul", "tensor.extract_slice", "tensor.insert_slice", "scf.for",
               "scf.if", "scf.while", "func.call", "arith.constant dense"]:
        assert op in text, op


def _yield_or_return_twice(text: str) -> bool:
    for m in re.finditer(r"(?:scf\.yield|return) ([^:\n]+) :", text):
        vals = [v.strip() for v in m.group(1).split(",")]
        vals = [v for v in vals if not re.fullmatch(r"%n\d+", v)]  # while-loop counters
        if len(vals) != len(set(vals)):
            return True
    return False


def test_avoid_flag_static():
    for s in range(60):
        text = gen_programs.generate(s, 12)
        assert not _yield_or_return_twice(text), s
        consts = set(re.findall(r"(%k\d+) = arith.constant dense", text))
        for op in oracle._walk_ops(text):  # loop yields: never a constant
            if op.name == "scf.yield" and op.parents[-1] in ("scf.for", "scf.while"):
                m = re.search(r"scf\.yield ([^:\n]+) :", op.text)
                assert not consts & {v.strip() for v in m.group(1).split(",")}, s


def test_cli_prints_the_program():
    out = subprocess.run([sys.executable, "-m", "tests.gen_programs", "--seed", "3",
                          "--size", "10"], capture_output=True, text=True, check=True,
                         cwd=oracle.REPO).stdout
    assert out == gen_programs.generate(3, 10)


@needs_tools
@pytest.mark.parametrize("seed", SEEDS)
def test_generated_program_runs_clean(seed):
    check_program(gen_programs.generate(seed, SIZE))


@needs_tools
@pytest.mark.parametrize("name", sorted(gen_programs.known_miscompile_programs()))
def test_known_miscompiles_differ(name):
    text = gen_programs.known_miscompile_programs()[name]
    sem = oracle.run_semantic(text)
    assert sem.clean and sem.data == gen_programs.KNOWN_MISCOMPILE_EXPECTED[name]
    ref = oracle.run_reference(text)
    assert ref.returncode != 0 or ref.data != sem.data


@needs_tools
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 140))
def test_generated_program_runs_clean_large(seed):
    check_program(gen_programs.generate(seed, 20))
