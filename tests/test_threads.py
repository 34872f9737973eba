"""The library is used from threads: a Dask worker with ``threads_per_worker > 1`` runs
several files at once in one process. Every Z3 user (engine/optimal.py, engine/slices.py,
backend/dealloc.py) must keep to its own Z3 context — sharing Z3's global one crashed the
process (segfault in Z3_solver_assert). Here the corpus is bufferized with the
Z3-heavy ``optimal`` strategy concurrently, and every result must equal the sequential one.
The embedded engine's per-process caches are shared by the threads too: clingo's parsed
rule statements (engine/clingo_api.py; without their lock the threads' parses mixed and
this test failed) and its number and string symbols."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from bufferlog.backend.bufferize import bufferize
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module
from conftest import CORPUS_FILES
from test_analysis_slices import SYMBOLIC


def _bufferize(text: str, name: str) -> str:
    try:
        return print_module(bufferize(parse(text, name), strategy="optimal", engine="embedded"))
    except Exception as e:  # a file the backend rejects: the message must be stable too
        return f"error: {e}"


def test_concurrent_bufferize_equals_sequential():
    inputs = [(p.read_text(), str(p)) for p in CORPUS_FILES if p.stat().st_size < 20_000]
    inputs.append((SYMBOLIC, "symbolic.mlir"))
    assert len(inputs) >= 10
    expected = [_bufferize(t, n) for t, n in inputs]
    assert sum("memref.dealloc" in e for e in expected) >= 5  # Z3 folding really ran
    work = inputs * 3
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda tn: _bufferize(*tn), work))
    assert got == expected * 3
