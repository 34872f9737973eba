"""One file, four views of its figures: ``analyze --format json``, ``bufferize --stats``,
the ``batch`` row and the batch's ``.explain.txt`` must say the same thing, and each
copy they count must be a copy in the bufferized output (counted independently by
tests/oracle.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from bufferlog.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402

CORPUS = oracle.SHARED / "corpus"
CASES = [("seeds/maybe_copy.mlir", "optimal"), ("seeds/maybe_copy.mlir", "oneshot"),
         ("seeds/raw_conflict.mlir", "oneshot"), ("torch/tensor_ops.mlir", "oneshot")]
ANALYSIS = ["ops", "tensor_operands", "written_operands", "inplace_operands",
            "out_of_place_operands", "out_of_place_bytes", "inplace_pct", "conflicts",
            "conflicts_by_kind"]
OUTPUT = ["copies", "bytes_copied", "allocs", "deallocs", "dealloc_checks", "clones",
          "guarded_deallocs", "dealloc_helper_calls"]


def _stats(err: str) -> dict:
    line = next(ln for ln in err.splitlines() if ln.startswith("ops="))
    return {k: json.loads(v) for k, v in (kv.split("=", 1) for kv in line.split())}


@pytest.mark.parametrize("name,strategy", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_json_stats_row_and_explain_agree(name, strategy, tmp_path, capsys):
    src = CORPUS / name
    if not src.exists():
        pytest.skip(f"corpus file missing: {src}")
    f = tmp_path / src.name
    f.write_text(src.read_text())

    assert main(["analyze", str(f), "--format", "json", "--strategy", strategy]) == 0
    analysis = json.loads(capsys.readouterr().out)["figures"]

    out = tmp_path / "out.mlir"
    assert main(["bufferize", str(f), "--strategy", strategy, "--stats", "-o", str(out)]) == 0
    stats = _stats(capsys.readouterr().err)

    report = tmp_path / "r.json"
    assert main(["batch", "-q", str(f), "--no-cache", "--strategy", strategy, "--report",
                 str(report)]) == 0
    capsys.readouterr()
    row = json.loads(report.read_text())["rows"][0]
    explanation = (tmp_path / row["explain"]).read_text()

    assert {k: row[k] for k in ANALYSIS} == analysis == {k: stats[k] for k in ANALYSIS}
    assert {k: row[k] for k in OUTPUT} == {k: stats[k] for k in OUTPUT}

    # the explanation's header and its list of copies give the row's numbers
    head = re.match(r".*: (\d+) copies in the bufferized output \((\d+) bytes\); (\d+) "
                    r"out-of-place tensor operands \((\d+) bytes\), (\d+) conflicts", explanation)
    assert head, explanation.splitlines()[0]
    assert [int(x) for x in head.groups()] == [row["copies"], row["bytes_copied"],
                                               row["out_of_place_operands"],
                                               row["out_of_place_bytes"], row["conflicts"]]
    assert len(re.findall(r"^copy \d+: ", explanation, re.M)) == row["copies"]
    causes = row["copies_by_cause"]
    assert sum(g["copies"] for g in causes) == row["copies"]
    assert sum(g["bytes"] for g in causes) == row["bytes_copied"]

    # and they are the copies of the output, counted by the oracle's own textual counter
    c = oracle.count_ops(out.read_text())
    assert row["copies"] == c["copies"]


def test_optimal_maybe_copy_names_operands_and_copies_apart(capsys):
    """The figure the issue caught: optimal puts 3 operands of maybe_copy out of place,
    and its output has 1 copy. The JSON says so with two names instead of one."""
    f = CORPUS / "seeds" / "maybe_copy.mlir"
    if not f.exists():
        pytest.skip("corpus file missing")
    assert main(["analyze", str(f), "--format", "json", "--strategy", "optimal"]) == 0
    fig = json.loads(capsys.readouterr().out)["figures"]
    assert "copies" not in fig and "copied_bytes" not in fig
    assert main(["bufferize", str(f), "--strategy", "optimal", "--stats", "-o", "/dev/null"]) == 0
    stats = _stats(capsys.readouterr().err)
    assert fig["out_of_place_operands"] == stats["out_of_place_operands"] > stats["copies"]
