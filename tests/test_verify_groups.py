"""The verifier against mlir-opt-22 on each group of invalid input it once accepted
(tests/verify_groups/*.mlir, cases separated by ``// -----``): slices against their
source type, linalg indexing maps / strides / dilations / linalg.index, tensor.pad's
result type, expand_shape's output shape, the bracket structure of dense literals and
the ``{-# dialect_resources #-}`` section -- with valid cases mixed in.

For every case both tools give the same verdict and, when they reject it, the same first
error at the same line:col (a case whose first line says ``// verdict-only`` compares the
verdict alone). Each group's file holds cases both reject and cases both accept, so a
check that always fails or never fires shows up."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import oracle
import pytest
from bufferlog.frontend.parser import parse

from bufferlog.core import UserError

HERE = Path(__file__).resolve().parent / "verify_groups"
GROUPS = sorted(HERE.glob("*.mlir"))
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
_ERR = re.compile(r"<stdin>:(\d+):(\d+): error: (.*)")


def _cases(path: Path) -> list[str]:
    return [c for c in path.read_text().split("// -----\n") if c.strip()]


def _theirs(text: str) -> tuple[str, str] | None:
    r = subprocess.run([oracle.MLIR_OPT, "--allow-unregistered-dialect", "-"], input=text,
                       capture_output=True, text=True, timeout=60)
    if r.returncode == 0:
        return None
    m = _ERR.search(r.stderr)
    assert m, r.stderr
    return f"{m.group(1)}:{m.group(2)}", m.group(3)


def _ours(text: str) -> tuple[str, str] | None:
    try:
        parse(text, "<stdin>")
    except UserError as e:
        return f"{e.loc.line}:{e.loc.col}", e.message
    return None


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", GROUPS, ids=lambda p: p.stem)
def test_group_judged_like_mlir_opt(path: Path) -> None:
    bad, verdicts = [], {"both reject": 0, "both accept": 0}
    for i, text in enumerate(_cases(path)):
        ours, theirs = _ours(text), _theirs(text)
        if (ours is None) != (theirs is None):
            bad.append(f"case {i}: ours {ours}, mlir-opt {theirs}")
            continue
        verdicts["both accept" if ours is None else "both reject"] += 1
        if ours is not None and not text.startswith("// verdict-only") and ours != theirs:
            bad.append(f"case {i}: ours {ours}, mlir-opt {theirs}")
    assert not bad, "\n".join(bad)
    assert verdicts["both reject"] and verdicts["both accept"], verdicts
