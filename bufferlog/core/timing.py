"""Phase timing, like ``mlir-opt --mlir-timing``: the API wraps its stages in
``with phase("parse"):`` and a :class:`Timer` made active by :func:`timed` (``--timing``,
the progress indicator) records them. Without an active timer a phase costs one
attribute lookup.

A nested phase is recorded under its parent (``analysis/rules``), so a later, finer
breakdown inside a stage needs no change here."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class Timer:
    """Wall time per phase name, in first-seen order; ``current`` is the phase running."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.seconds: dict[str, float] = {}
        self.stack: list[str] = []

    @property
    def current(self) -> str | None:
        return self.stack[-1] if self.stack else None

    def total(self) -> float:
        return time.perf_counter() - self.start

    def report(self) -> str:
        """A table like mlir-opt's ``--mlir-timing`` execution time report."""
        total = self.total()
        bar = "===" + "-" * 73 + "==="
        lines = [bar, "bufferlog execution time report".center(79).rstrip(), bar,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for name, s in self.seconds.items():
            depth = name.count("/")
            pct = 100.0 * s / total if total > 0 else 0.0
            lines.append(f"  {s:8.4f} ({pct:5.1f}%)  {'  ' * depth}{name.rsplit('/', 1)[-1]}")
        other = total - sum(s for n, s in self.seconds.items() if "/" not in n)
        lines.append(f"  {other:8.4f} ({100.0 * other / total if total > 0 else 0.0:5.1f}%)  "
                     "other (start-up, reading input, printing)")
        lines.append(f"  {total:8.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"


_active: Timer | None = None


@contextmanager
def timed() -> Iterator[Timer]:
    """Make a fresh :class:`Timer` active for the ``with`` body."""
    global _active
    outer, _active = _active, Timer()
    try:
        yield _active
    finally:
        _active = outer


@contextmanager
def phase(name: str) -> Iterator[None]:
    """Record the wall time of the ``with`` body under ``name`` in the active timer."""
    t = _active
    if t is None:
        yield
        return
    full = f"{t.stack[-1]}/{name}" if t.stack else name
    t.stack.append(full)
    t.seconds.setdefault(full, 0.0)  # a parent is listed before the phases inside it
    t0 = time.perf_counter()
    try:
        yield
    finally:
        t.stack.pop()
        t.seconds[full] = t.seconds.get(full, 0.0) + time.perf_counter() - t0
