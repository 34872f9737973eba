"""The executable torch-mlir models of ../shared/torch_exec (inputs filled, every result
printed): bufferized by bufferlog with each strategy, run under mlir-runner-22 with the
counting allocator, they must print what mlir-opt-22's copy-before-write reference
prints (every write into a fresh copy: the semantic truth), with no leak and no double
or foreign free."""

from __future__ import annotations

import pytest

try:
    from tests import oracle
    from tests.sweep import bufferize_text
except ImportError:  # tests/ on sys.path
    import oracle
    from sweep import bufferize_text

MODELS = sorted((oracle.SHARED / "torch_exec").glob("*.mlir"))


@pytest.mark.oracle
@pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.stem)
def test_model_prints_reference_values(path, strategy):
    text = path.read_text()
    ref = oracle.run_semantic(text)
    assert ref.returncode == 0 and ref.data, ref.stderr[-2000:]
    got = oracle.run_program(bufferize_text(text, strategy))
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.data == ref.data
    assert got.clean, (got.live, got.double_frees, got.bad_frees)
