"""The examples in README.md and docs/*.md run as written.

* a ```` ```console ```` block: each ``$ command`` line runs from the root of a fresh copy
  of the repository (no ``out/``, no build state: as on a fresh clone; the venv's
  ``bufferlog`` first on PATH); the lines after it up to the next ``$`` are its
  expected output (stdout and stderr), where a ``...`` line stands for any lines and a
  ``...`` inside a line for any text;
* a ```` ```python ```` block runs in a fresh interpreter from a temporary directory;
  every ``print(...)  # expected`` line must print ``expected``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def blocks(kind: str) -> list[tuple[str, str]]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m.group(1) == kind:
                line = text.count("\n", 0, m.start()) + 1
                out.append((f"{doc.relative_to(REPO)}:{line}", m.group(2)))
    return out


def _pattern(expected: list[str]) -> re.Pattern:
    parts = []
    for ln in expected:
        if ln == "...":
            parts.append(r"(?:.*\n)*?")
        else:
            parts.append(".*".join(re.escape(p) for p in ln.split("...")) + r"\n")
    return re.compile("".join(parts))


def _commands(block: str) -> list[tuple[str, list[str]]]:
    cmds: list[tuple[str, list[str]]] = []
    for ln in block.splitlines():
        if ln.startswith("$ "):
            cmds.append((ln[2:], []))
        elif cmds:
            cmds[-1][1].append(ln)
    return cmds


CONSOLE = blocks("console")
PYTHON = blocks("python")


def test_there_are_examples():
    assert len(CONSOLE) >= 5 and PYTHON


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The repository's files as a fresh clone has them (no out/, venv or build state)."""
    dst = tmp_path_factory.mktemp("clone") / "bufferlog"
    shutil.copytree(REPO, dst, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "out", "*.egg-info", "__pycache__", ".pytest_cache"))
    return dst


@pytest.mark.parametrize("where,block", CONSOLE, ids=[w for w, _ in CONSOLE])
def test_console_example(where, block, clone):
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               COLUMNS="100")
    env.pop("BUFFERLOG_DEBUG", None)
    for cmd, expected in _commands(block):
        r = subprocess.run(cmd, shell=True, cwd=clone, env=env, capture_output=True, text=True,
                           timeout=300)
        got = r.stderr + r.stdout if "--stats" in cmd else r.stdout + r.stderr
        assert _pattern(expected).fullmatch(got), f"{where}: $ {cmd}\n--- got:\n{got}"


@pytest.mark.parametrize("where,block", PYTHON, ids=[w for w, _ in PYTHON])
def test_python_example(where, block, tmp_path):
    r = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, f"{where}:\n{r.stderr}"
    expected = [m.group(1).strip() for m in re.finditer(r"^\s*print\(.*\)\s+#\s*(.*)$", block, re.M)]
    assert r.stdout.splitlines() == expected, where
