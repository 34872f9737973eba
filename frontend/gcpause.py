"""Pause Python's cyclic garbage collector around allocation-heavy phases.

Parsing, printing and fact export allocate hundreds of thousands of objects that stay
alive (the IR) or die by reference counting (parse trees, strings): the collector finds
no garbage there, but its periodic scans of the growing heap cost up to 60% of the
parse time on large inputs. ``paused()`` turns it off for the phase and restores the
previous state afterwards (nesting is fine); cycles made meanwhile are collected later
as usual."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
