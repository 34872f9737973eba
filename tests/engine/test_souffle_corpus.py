"""With Soufflé on PATH, `analyze`, `bufferize` and `explain` print the same bytes under
``--engine souffle`` and ``--engine embedded`` on every file of the shared corpus (issue 9).
Slow (Soufflé interprets every rules run); skipped when ``souffle`` is absent."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from conftest import CORPUS_FILES, REPO

pytestmark = [pytest.mark.souffle,
              pytest.mark.skipif(shutil.which("souffle") is None, reason="souffle not installed")]


def cli(*args: str) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-m", "bufferlog", *args], capture_output=True,
                       text=True, cwd=REPO)
    return p.returncode, p.stdout, p.stderr


def explain_line(path) -> int | None:
    """The first line holding an op with a tensor result that `analyze` annotates."""
    rc, out, _ = cli("analyze", str(path), "--engine", "embedded", "--format", "json")
    if rc:
        return None
    import json

    ops = json.loads(out)["ops"]
    ops = [o for o in ops if any(not x["inplace"] for x in o["operands"])] or ops
    return int(ops[0]["loc"].split(":")[-2]) if ops else None


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_same_bytes(path):
    for cmd in ("analyze", "bufferize"):
        assert cli(cmd, str(path), "--engine", "souffle") == cli(cmd, str(path), "--engine", "embedded")
    line = explain_line(path)
    if line is not None:
        args = ("explain", str(path), "--op", str(line))
        assert cli(*args, "--engine", "souffle") == cli(*args, "--engine", "embedded")
