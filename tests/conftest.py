"""Shared pytest fixtures.

* ``mlir_opt`` -- path of the oracle ``mlir-opt-22`` (``$MLIR_OPT`` overrides); skips the
  test when it is not installed.
* ``corpus_files`` -- every ``.mlir`` file of the shared corpus (``$BUFFERLOG_SHARED``,
  default ``../shared`` beside the repo, then ``/work/shared``).
* ``CORPUS_FILES`` -- the same list at import time, for ``parametrize``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from oracle import REPO, shared_dir  # noqa: F401  (REPO is re-exported to the tests)

CORPUS_FILES: list[Path] = sorted((shared_dir() / "corpus").glob("*/*.mlir"))


def mlir_opt_path() -> str | None:
    return shutil.which(os.environ.get("MLIR_OPT", "mlir-opt-22"))


@pytest.fixture
def mlir_opt() -> str:
    path = mlir_opt_path()
    if path is None:
        pytest.skip("mlir-opt-22 not installed")
    return path


@pytest.fixture
def corpus_files() -> list[Path]:
    if not CORPUS_FILES:
        pytest.skip("shared corpus not found")
    return CORPUS_FILES
