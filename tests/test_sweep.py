"""A fast sample of each class of generated programs of tests/gen_classes.py, run as
``python -m tests.sweep`` runs them: bufferized with both strategies, executed under
mlir-runner-22 with the counting allocator, compared with mlir-opt-22's copy-before-write
semantic reference (same printed values, exit 0, nothing leaked or freed twice).

The static tests check that each flag produces its class (so the sample cannot pass by
generating something easier).
"""

from __future__ import annotations

import re

import pytest

try:
    from tests import gen_programs, oracle, sweep
except ImportError:  # tests/ on sys.path
    import gen_programs
    import oracle
    import sweep

needs_tools = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")

SIZE = 12
#: (class flag, seed): a few seeds of each class
SAMPLE = [("arg_loops", s) for s in (0, 1, 2)] + [("multi_outs", s) for s in (0, 1, 2)] \
    + [("high_rank", s) for s in (0, 1, 2)] + [("slice_writes", s) for s in (0, 1, 2)]


def gen(cls: str, seed: int) -> str:
    return gen_programs.generate(seed, SIZE, **{cls: True})


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("cls,seed", SAMPLE)
def test_generated_class_prints_the_reference_values(cls, seed):
    """Both strategies: the reference's values, exit 0, no leak (an OracleError of the
    reference itself fails the test too: the generator must stay within what mlir-opt-22
    bufferizes). oneshot's output passes the certificate of the output; optimal's either
    passes it or, as ``bufferize --strategy optimal`` does then, is replaced by oneshot's
    ("ok, fallback (...)"), which must be right in turn."""
    got = sweep.check(gen(cls, seed))
    assert got["oneshot"] == "ok"
    assert got["optimal"] == "ok" or got["optimal"].startswith("ok, fallback"), got["optimal"]


def _texts(cls: str, n: int = 30) -> str:
    return "\n".join(gen(cls, s) for s in range(n))


def test_arg_loops_class():
    text = _texts("arg_loops")
    assert re.search(r"scf\.for %i\d+ = %lb to %ub step", text)
    assert re.search(r"scf\.forall \(%i\d+\) = \(%lb\) to \(%ub\) step \(%c1\)", text)
    assert re.search(r"scf\.while \(%a\d+ = %\w+, %n\d+ = %lb\)", text)
    # every helper with loop bounds is called with lb == ub (zero trips) and lb < ub
    for seed in range(30):
        t = gen("arg_loops", seed)
        for f in re.findall(r"func\.func @(\w+)\([^)]*%lb: index", t):
            pairs = re.findall(rf"call @{f}\([^)]*%c(\d), %c(\d)\)", t)
            assert any(a == b for a, b in pairs) and any(a < b for a, b in pairs), (seed, f)
            assert all(a <= b for a, b in pairs)


def test_multi_outs_class():
    text = _texts("multi_outs")
    assert re.search(r"%m\d+:3 = linalg\.generic", text)
    repeated = [m for m in re.findall(r"%m\d+:\d = linalg\.generic .*? outs\(([^:]+):", text)
                if len({x.strip() for x in m.split(",")}) < len(m.split(","))]
    assert len(repeated) >= 10


def test_high_rank_class():
    text = _texts("high_rank")
    ranks = set()
    for src, dst in re.findall(r"tensor\.extract_slice .* : tensor<([\dx]+)xf32> to "
                               r"tensor<([\dx]*)f32>", text):
        r_src, r_dst = src.count("x") + 1, dst.count("x")
        if r_dst < r_src:
            ranks.add(r_src)
    assert {6, 7} <= ranks, ranks
    assert "to tensor<f32>" in text  # down to rank 0
    assert re.search(r"tensor\.insert_slice .* : tensor<[\dx]+f32> into "
                     r"tensor<\d+x\d+x\d+x\d+x\d+x\d+x\d+xf32>", text)


def test_slice_writes_class():
    text = _texts("slice_writes")
    # symbolic offsets: an index parameter or a loop variable plus a constant
    assert re.search(r"tensor\.(extract|insert)_slice .*\[%x\d+", text)
    assert re.search(r"%x\d+ = arith\.addi %(lb|ub), %c\d", text)
    # the loop class: the element of the previous iteration's slice is read
    assert re.search(r"%x\d+ = arith\.subi %i\d+, %c1", text) or \
        re.search(r"%x\d+ = arith\.addi %i\d+, %c\d", text)


def test_class_flags_in_the_clis():
    for flag in gen_programs.CLASS_FLAGS:
        assert gen_programs.generate(3, 10, **{flag.replace("-", "_"): True}) != \
            gen_programs.generate(3, 10)
