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

REPO = Path(__file__).resolve().parent.parent


def shared_dir() -> Path:
    env = os.environ.get("BUFFERLOG_SHARED")
    for cand in ([Path(env)] if env else []) + [REPO.parent / "shared", Path("/work/shared")]:
        if (cand / "corpus").is_dir():
            return cand
    return REPO.parent / "shared"


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
