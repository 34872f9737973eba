"""A plain install works from anywhere: the project is built into a wheel, installed
non-editable into a fresh venv, and run from a directory outside the checkout (the CLI,
``python -m bufferlog``, ``rules check`` on the packaged rules, and the README's Python
example)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _run(*cmd, cwd, timeout=900):
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, f"{cmd}:\n{r.stdout}\n{r.stderr}"
    return r


@pytest.mark.slow
def test_fresh_venv_wheel_install_runs_outside_the_checkout(tmp_path):
    # build the wheel from a copy of the sources, so no stale build state is reused
    src = tmp_path / "src"
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", "__pycache__", "out", ".pytest_cache"))
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, src, cwd=tmp_path)
    wheel = next(dist.glob("bufferlog-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("bufferlog/rules/schema.dl", "bufferlog/rules/analysis/reads.dl",
                   "bufferlog/app/report_template.html", "bufferlog/frontend/grammar/core.lark",
                   "bufferlog/__main__.py", "bufferlog-0.1.0.dist-info/licenses/LICENSE"):
        assert needed in names, needed
    meta = zipfile.ZipFile(wheel).read("bufferlog-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: MIT" in meta
    urls = [ln.split(", ", 1)[1] for ln in meta.splitlines() if ln.startswith("Project-URL: ")]
    assert urls and all(u.startswith("https://") for u in urls), urls
    assert "MIT License" in zipfile.ZipFile(wheel).read(
        "bufferlog-0.1.0.dist-info/licenses/LICENSE").decode()

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    py, exe = venv / "bin" / "python", venv / "bin" / "bufferlog"
    _run(py, "-m", "pip", "install", "-q", wheel, cwd=tmp_path)

    work = tmp_path / "elsewhere"
    work.mkdir()
    shutil.copy(REPO / "examples" / "raw_conflict.mlir", work / "f.mlir")
    out = _run(exe, "analyze", "f.mlir", cwd=work).stdout
    assert '"C_0[CONFL-WRITE: 1]"' in out
    assert "memref.copy" in _run(exe, "bufferize", "f.mlir", cwd=work).stdout
    opt = _run(venv / "bin" / "bufferlog-opt", "f.mlir", "-one-shot-bufferize=bufferize-"
               "function-boundaries", "-buffer-deallocation-pipeline", cwd=work).stdout
    assert "memref.copy" in opt and sorted(p.name for p in work.iterdir()) == ["f.mlir"]
    assert _run(py, "-m", "bufferlog", "--version", cwd=work).stdout.strip() == "bufferlog 0.1.0"
    checked = _run(exe, "rules", "check", cwd=work).stdout
    assert re.match(r"ok: [1-9]\d* file\(s\)", checked)
    located = _run(py, "-c", "import bufferlog.core as c; print(c.rules_dir())", cwd=work).stdout
    assert str(venv) in located and str(REPO) not in located

    readme = (REPO / "README.md").read_text()
    example = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    expected = [m.group(1).strip() for m in
                re.finditer(r"^\s*print\(.*\)\s+#\s*(.*)$", example, re.M)]
    assert _run(py, "-c", example, cwd=work).stdout.splitlines() == expected
