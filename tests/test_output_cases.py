"""Programs that bufferlog once compiled wrongly or refused badly, each run under
mlir-runner-22 with the counting allocator under both strategies.

The expected values are computed by hand (each file's comment says how) and are also
what mlir-opt-22's copy-before-write semantic reference prints (checked here too).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

try:
    from tests import oracle
    from tests.sweep import bufferize_text
except ImportError:  # tests/ on sys.path
    import oracle
    from sweep import bufferize_text

HERE = Path(__file__).parent / "output_cert"
EXPECTED = {
    # zero trips: the loop's result is its init; element 1 of [1, 2, 3, 4] twice
    "zero_trip_init": "[2, 2]",
    # the same through a cast of the init (the copy is the cast's): element 1 twice
    "zero_trip_init_through_cast": "[2, 2]",
    # results: the input and its negation, each in its own buffer
    "two_outs_one_tensor": "[1, 2, 3, 4] [-1, -2, -3, -4]",
    # elements 4..7 with element 6 set to 9 land at 0..3; 4..7 keep the original values
    "disjoint_writes_slice": "[4, 5, 9, 7, 4, 5, 6, 7]",
    # x: 1 + 2 + 3 (the original elements), y: 3 * 100
    "loop_slice_next_iteration": "[306]",
    # %t = [0, 7, 5, 3] with element 2 set to %a[1] = 1 (element 1 of %b stays 7)
    "two_dynamic_inserts": "[0, 7, 1, 3]",
    # (9 + 2 + 3) + (1 + 9 + 3) + (1 + 2 + 9): each iteration sees only its own 9
    "loop_insert_outer": "[39]",
    # a loop of blocks carrying a copy: the third run's [8, 4, 6, 2]
    "cf_loop_copy_carried": "[8, 4, 6, 2]",
    # 11 + 2 + 2, then the loop's result and %t, both [1, 1]
    "loop_yields_outer": "[15, 1, 1, 1, 1]",
    # [1, 2, 3, 4] with elements 0..2 copied to 1..3, then the old element 2
    "shifted_copy": "[1, 1, 2, 3, 3]",
    # elements 4..7 set to 9, then that doubled
    "tile_rewritten_after_copy": "[0, 1, 2, 3, 9, 9, 9, 9] [0, 2, 4, 6, 18, 18, 18, 18]",
    # elements 1, 3 and 5 set to 9, then that doubled
    "tile_rewritten_dynamic": "[0, 9, 2, 9, 4, 9, 6, 7] [0, 18, 4, 18, 8, 18, 12, 14]",
    # 2 + 2, from each call
    "callee_overwrites_first": "[4, 4, 4, 4] [4, 4, 4, 4]",
    # 1 + 1 from %init, then 2 + 2 from the buffer the inner loop made before
    "inner_loop_starts_from_outer": "[6]",
    # element 0 doubled: 1 from %t, 9 from %w
    "callee_reads_first": "[2, 2, 2, 2] [18, 18, 18, 18]",
    # zeros, with ones at big[1, 0..1, 0, 0..3, 0, 0, 1]: flattened positions 17, 19, ... 31
    "rank_reducing_rank7": "[" + ", ".join("1" if k >= 16 and k % 2 else "0" for k in range(32)) + "]",
}

needs_tools = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")


def _data(stdout: str) -> str:
    return " ".join(oracle.print_data(stdout).split())


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_prints_the_right_values(name, strategy):
    text = (HERE / f"{name}.mlir").read_text()
    r = oracle.run_program(bufferize_text(text, strategy))
    assert r.returncode == 0, r.stderr[-2000:]
    assert _data(r.stdout) == EXPECTED[name]
    assert r.clean, (r.live, r.double_frees, r.bad_frees)


#: programs with loops made of blocks
BLOCK_LOOPS = {"cf_loop_copy_carried"}


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_expected_values_are_the_references(name):
    """The hand-computed values are what the copy-before-write reference prints."""
    # mlir-opt-22's deallocation refuses loops made of blocks ("Only structured
    # control-flow loops are supported"): its reference runs them without frees
    sem = oracle.run_semantic((HERE / f"{name}.mlir").read_text(),
                              dealloc=name not in BLOCK_LOOPS)
    assert sem.returncode == 0, sem.stderr[-2000:]
    assert _data(sem.stdout) == EXPECTED[name]


BAD = {
    # mlir-opt-22 bufferizes the tensor op, then its memref.expand_shape verifier fails
    "expand_shape_output_shape": ("""func.func @f(%t: tensor<32xf32>) -> tensor<1x4x8xf32> {
  %r = tensor.expand_shape %t [[0, 1, 2]] output_shape [7, 4, 8] : tensor<32xf32> into tensor<1x4x8xf32>
  return %r : tensor<1x4x8xf32>
}
""", "2:", "invalid output shape provided at pos 0"),
    # a region that never yields: mlir-opt-22 refuses to bufferize it
    "execute_region_without_yield": ("""func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.execute_region -> tensor<4xf32> {
    cf.br ^bb1
  ^bb1:
    cf.br ^bb1
  }
  return %r : tensor<4xf32>
}
""", "2:", "op without unique scf.yield is not supported"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_refused_with_a_located_error(name, tmp_path):
    text, line, message = BAD[name]
    f = tmp_path / "in.mlir"
    f.write_text(text)
    p = subprocess.run([sys.executable, "-m", "bufferlog", "bufferize", str(f)],
                       capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    assert f"{f}:{line}" in p.stderr and "error:" in p.stderr and message in p.stderr
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(BAD))
def test_mlir_opt_refuses_them_too(name):
    text, _, message = BAD[name]
    with pytest.raises(oracle.OracleError) as e:
        oracle.reference_bufferize(text, dealloc=False)
    assert message in str(e.value)
