"""Start-up stays lean: the frontend commands import none of the heavy packages (each
costs tens of milliseconds per process), and a fresh process parses from the cached
tables without building a lark parser."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import CORPUS_FILES

HEAVY = ("z3", "clingo", "dask", "rich", "lark")

PROBE = """
import sys
from bufferlog.cli import main
rc = main(sys.argv[1:])
print("imported:", *(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
sys.exit(rc)
"""


@pytest.mark.parametrize("args", [["print"], ["print", "--generic"], ["facts", "-o", "{tmp}"]],
                         ids=["print", "print-generic", "facts"])
def test_frontend_commands_import_no_heavy_package(args: list[str], tmp_path) -> None:
    f = next(p for p in CORPUS_FILES if p.name == "attention_block.mlir")
    argv = [a.replace("{tmp}", str(tmp_path / "facts")) for a in args]
    r = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), argv[0], str(f),
                        *argv[1:]], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "imported:\n" in r.stderr, r.stderr  # none of HEAVY was imported
