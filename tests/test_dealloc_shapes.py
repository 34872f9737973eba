"""`bufferlog dealloc` is never worse than mlir-opt and always correct, on memref programs
written in the style MLIR uses to test ownership-based deallocation (tests/dealloc/shapes:
cf diamonds, critical edges, nested joins, scf.if/index_switch/execute_region, for and
while loops, nested regions, function boundaries, returned views, alloca, get_global,
realloc, existing clones, dead buffers; plus the programs of tests/dealloc and the
memref-level seeds of the shared corpus).

* Where ``mlir-opt-22 --buffer-deallocation-pipeline`` succeeds on a program that cannot
  run (no ``@main``), our output has no more clones, deallocs or runtime checks than its
  output, both counted by ``backend/quality.py count_figures``; programs that run are
  judged by their run-time cost (tests/test_dealloc_cost.py).
* Programs with a ``@main`` run under mlir-runner-22 with the counting allocator: the
  same printed values as mlir-opt's pipeline output (or as the input itself where
  mlir-opt refuses it or its output cannot be lowered), nothing leaked, nothing freed
  twice or foreign.
* Every guarded free or runtime alias check we emit has a reason in ``dealloc --stats``.

Run ``python tests/test_dealloc_shapes.py`` to print the count table of
docs/deallocation.md.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402
from bufferlog.backend.dealloc import deallocate  # noqa: E402
from bufferlog.backend.quality import count_figures  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402

HERE = Path(__file__).resolve().parent
SEEDS = [oracle.SHARED / "corpus" / "seeds" / f"{n}.mlir"
         for n in ("branch_alias", "ownership_example", "loop_nested_if", "nested_region_control_flow")]
SUITE = (sorted((HERE / "dealloc" / "shapes").glob("*.mlir")) + sorted((HERE / "dealloc").glob("*.mlir"))
         + [p for p in SEEDS if p.exists()])
KEYS = ("clones", "deallocs", "dealloc_checks")
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")


@cache
def ours(path: Path):
    m = parse(path.read_text(), str(path))
    stats = deallocate(m)
    return print_module(m), stats


@cache
def reference(path: Path) -> str | None:
    """mlir-opt's pipeline output (generic form, which count_figures parses), or None
    where mlir-opt refuses the input (e.g. frees already present)."""
    try:
        return oracle.mlir_opt(path.read_text(), "--buffer-deallocation-pipeline",
                               "--mlir-print-op-generic")
    except oracle.OracleError:
        return None


def runnable(text: str) -> str:
    """Our output with memref.realloc expanded (the LLVM lowering has no realloc; the
    expansion frees the source, as realloc does) and shape.assuming regions inlined under
    their constant witness (``--canonicalize``: no lowering of its own)."""
    if "memref.realloc" in text:
        text = oracle.mlir_opt(text, "--expand-realloc")
    return oracle.mlir_opt(text, "--canonicalize") if "shape.assuming" in text else text


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", SUITE, ids=lambda p: p.stem)
def test_never_worse_than_mlir_opt(path: Path) -> None:
    """mlir-opt parses our output; a program that cannot run (no ``@main``: the seeds) has
    no more clones, deallocs or runtime checks than mlir-opt's output. A program that runs
    is judged by what it costs at run time instead (tests/test_dealloc_cost.py): a clone
    taken only when a pointer comparison says the buffer is shared costs nothing in the
    runs where it is not, and a check-based hand-over may add a check where a clone would
    copy a buffer."""
    mine, _ = ours(path)
    oracle.mlir_opt(mine)  # mlir-opt-22 parses and verifies our output
    ref = reference(path)
    if ref is None:
        pytest.skip("mlir-opt's pipeline refuses this input")
    if "@main" in path.read_text():
        return
    a, b = count_figures(mine), count_figures(ref)
    worse = {k: (a[k], b[k]) for k in KEYS if a[k] > b[k]}
    assert not worse, (worse, mine)


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("path", [p for p in SUITE if "@main" in p.read_text()], ids=lambda p: p.stem)
def test_runs_like_mlir_opt(path: Path) -> None:
    mine, _ = ours(path)
    got = oracle.run_program(runnable(mine), count=True)
    ref = reference(path)
    try:
        want = oracle.run_program(runnable(ref if ref is not None else path.read_text()), count=True)
    except oracle.OracleError:  # mlir-opt's own output cannot be lowered (a clone of a
        want = oracle.run_program(path.read_text(), count=True)  # static-offset view)
    assert got.returncode == 0, got.stderr
    assert got.masked_stdout == want.masked_stdout
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0), mine


@pytest.mark.parametrize("path", SUITE, ids=lambda p: p.stem)
def test_stats_give_a_reason_for_every_runtime_check(path: Path) -> None:
    mine, st = ours(path)
    assert len(st.reasons) == st.conditional + st.runtime
    assert all(re.match(r"\S+:\d+:\d+: (guarded free of .+: .+|runtime (alias )?check freeing .+)$", r)
               for r in st.reasons), st.reasons
    # a runtime alias check is a chain of one-memref bufferization.deallocs (one per member
    # but the first): none without a reason, and none in a program without runtime checks
    assert (mine.count("bufferization.dealloc") > 0) == (st.runtime > 0)
    assert mine.count("bufferization.dealloc") >= st.runtime


def test_suite_covers_the_shapes() -> None:
    """At least 60 programs, and the shapes the issue names are among them."""
    names = {p.stem for p in SUITE}
    assert len(names) >= 60
    for must in ("cf_if_else_swap", "cf_critical_edge", "cf_inv_critical_edge", "while_simple",
                 "for_two_swapped", "nested_regions", "ret_subview", "alloca_alloc_if",
                 "realloc_loop", "clone_dead", "dead_alloc", "loop_if_keeps_carried", "loop_if_nested",
                 "while_if_keeps_carried", "loop_yield_twice", "loop_select_two_allocs"):
        assert must in names


def table() -> str:
    """Markdown table: per program ours / mlir-opt for each key, and the totals."""
    rows, tot = [], {k: [0, 0] for k in KEYS}
    for p in SUITE:
        ref = reference(p)
        a = count_figures(ours(p)[0])
        if ref is None:
            rows.append(f"| {p.stem} | " + " | ".join(f"{a[k]} / -" for k in KEYS) + " |")
            continue
        b = count_figures(ref)
        for k in KEYS:
            tot[k][0] += a[k]
            tot[k][1] += b[k]
        rows.append(f"| {p.stem} | " + " | ".join(f"{a[k]} / {b[k]}" for k in KEYS) + " |")
    head = "| program | " + " | ".join(KEYS) + " |\n|---|" + "---|" * len(KEYS)
    total = "| **total (mlir-opt succeeds)** | " + " | ".join(f"{a} / {b}" for a, b in tot.values()) + " |"
    return "\n".join([head, *rows, total])


if __name__ == "__main__":
    print(table())
