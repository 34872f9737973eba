"""Shared helpers for the engine tests: which engines are available."""

from __future__ import annotations

import pytest
from bufferlog.engine import souffle

HAVE_SOUFFLE = souffle.find() is not None

#: (engine name, compiled?) pairs every conformance program runs on.
ENGINE_MODES = [
    pytest.param(("embedded", False), id="embedded"),
    pytest.param(("souffle", False), id="souffle", marks=pytest.mark.souffle),
    pytest.param(("souffle", True), id="souffle-compiled", marks=pytest.mark.souffle),
]


def need(engine: str) -> None:
    if engine == "souffle" and not HAVE_SOUFFLE:
        pytest.skip("souffle not on PATH and BUFFERLOG_SOUFFLE unset")
