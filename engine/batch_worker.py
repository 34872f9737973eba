"""Preloaded by the batch executor's fork server: imports the per-file code and builds
the parser tables once, so every worker process forks with them ready (building the
LALR tables takes seconds; parsing a small file takes milliseconds)."""

from __future__ import annotations

from bufferlog.engine import batch  # noqa: F401  (import for its side effect: loaded code)


def warm() -> None:
    try:
        from bufferlog.frontend.parser import get_lark

        get_lark()
    except Exception:  # a broken parser shows up per file, with its message
        pass


warm()
