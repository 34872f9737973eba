"""The four miscompile classes of issue 9, each as a program that must print the right
values under both strategies, leak-free (mlir-runner-22 with the counting allocator).

The expected values are computed by hand (the comments say how): mlir-opt-22's
copy-before-write reference crashes on some of them (two_inserts_across_call), so it
cannot be the oracle here. The generator (tests/gen_programs.py ``dps=True``) produces
these classes at random; tests/test_sweep.py runs a sample of it against the reference.
"""

from __future__ import annotations

from pathlib import Path

import pytest

try:
    from tests import oracle
    from tests.sweep import bufferize_text
except ImportError:  # tests/ on sys.path
    import oracle
    from sweep import bufferize_text

HERE = Path(__file__).parent / "miscompiles"
EXPECTED = {
    # fill(1); the loop maps z + z into the fill's destination three times: 2 each time
    "loop_reads_fill_of_written_empty": ["[2,  2,  2,  2]"] * 3,
    # fill(2); two inserts of 3 into the same tensor at [0] and [1], each on its own copy
    "two_inserts_one_tensor": ["[3,  2,  2,  2]", "[2,  3,  2,  2]"],
    "two_inserts_across_call": ["[3,  2,  2,  2]", "[2,  3,  2,  2]"],
    # transposes of two constants into one empty: each keeps its own values
    "two_transposes_one_empty": ["[[1,   4],   [2,   5],   [3,   6]]",
                                 "[[7,   10],   [8,   11],   [9,   12]]"],
    # a transpose written into a constant's buffer (a read-only global) must not crash
    "transpose_into_constant": ["[[1,   3,   5],   [2,   4,   6]]"],
    # each iteration negates the whole shared output into a dead result, then inserts a tile
    # of 0.5: as values the loop yields 0.5 everywhere (mlir-opt 22 negates the shared buffer
    # in place and prints -0.5 in the rows written first)
    # @g fills its argument in a later block (dead result) and returns the argument: as
    # values it returns what it got, 1s (mlir-opt 22 exempts the write: the argument's
    # block does not contain it, though it dominates the block that does)
    "write_in_later_block_of_entry_arg": ["[1,  1,  1,  1]"],
    # @set fills its argument with 7 and returns it; the caller passes a slice of 1s
    # (bufferlog's own miscompile, found by the forall+cf sweep: seed 654)
    "slice_written_by_callee": ["[[7,   7],   [7,   7]]"],
    "forall_writes_whole_shared_out": ["[[0.5,   0.5],   [0.5,   0.5],   [0.5,   0.5],   "
                                       "[0.5,   0.5]]"],
}

needs_tools = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_prints_the_right_values(name, strategy):
    text = (HERE / f"{name}.mlir").read_text()
    r = oracle.run_program(bufferize_text(text, strategy))
    assert r.returncode == 0, r.stderr[-2000:]
    assert " ".join(r.data.split()) == " ".join(" ".join(EXPECTED[name]).split())
    assert r.clean, (r.live, r.double_frees, r.bad_frees)


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("name", ["loop_reads_fill_of_written_empty", "two_transposes_one_empty",
                                  "transpose_into_constant"])
def test_decisions_match_mlir_opt(name):
    """mlir-opt-22 is right on these three: bufferlog's oneshot decisions equal its own."""
    from bufferlog.engine.oneshot import analyze_module, operand_annotations
    from bufferlog.frontend.parser import parse

    text = (HERE / f"{name}.mlir").read_text()
    _, an, dec = analyze_module(parse(text, name), engine="embedded")
    ours = [(an.name[o], v) for o, v in operand_annotations(an, dec).items()]
    assert ours == oracle.inplace_decisions(oracle.reference_analysis(text))
