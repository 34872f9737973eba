"""`--strategy optimal`: never more copied bytes than oneshot, and conflict-free when
re-checked by the analysis."""

from __future__ import annotations

from pathlib import Path

import pytest
from bufferlog.engine.oneshot import analyze_module
from bufferlog.engine.optimal import cost
from bufferlog.frontend.parser import parse
from test_analysis_parity import SMALL  # noqa: E402

CORPUS = [p for p in sorted(Path("/work/shared/corpus").glob("**/*.mlir"))
          if p.name in {"raw_conflict.mlir", "slice_update.mlir", "mlp.mlir", "cnn.mlir",
                        "tensor_ops.mlir", "lstm_cell.mlir"}]


def check(text: str, name: str) -> None:
    _, an, base = analyze_module(parse(text, name), engine="embedded")
    uses = list(base.order)
    base_cost = cost(an, base.inplace, uses)
    _, an2, best = analyze_module(parse(text, name), strategy="optimal", engine="embedded")
    assert cost(an2, best.inplace, uses) <= base_cost
    assert an2.check_assignment({u: best.inplace.get(u, True) for u in uses}) == []


@pytest.mark.parametrize("name", sorted(SMALL))
def test_optimal_small(name):
    check(SMALL[name], name)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_optimal_corpus(path):
    check(path.read_text(), str(path))
