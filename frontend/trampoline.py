"""Deep recursion without Python's recursion limit.

Code that walks nested regions (parser, verifier, printer) is written as generators: a
generator ``yield``s the generator of a sub-task where it would have called it, and
receives the sub-task's return value as the value of the ``yield``. ``drive`` runs such a
stack of generators in a loop, so a 10,000-deep nesting costs heap, not C stack.
Exceptions travel up the stack exactly as through calls (``finally`` blocks run, an
outer ``try`` can catch)."""

from __future__ import annotations

from collections.abc import Generator

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any, TypeVar
    R = TypeVar("R")


def drive(gen: Generator[Any, Any, R]) -> R:
    """Run ``gen`` and every sub-generator it yields; return ``gen``'s return value."""
    stack: list[Generator[Any, Any, Any]] = [gen]
    value: Any = None
    error: BaseException | None = None
    while True:
        top = stack[-1]
        try:
            sub = top.throw(error) if error is not None else top.send(value)
        except StopIteration as done:
            stack.pop()
            value, error = done.value, None
            if not stack:
                return value
            continue
        except BaseException as e:
            stack.pop()
            if not stack:
                raise
            value, error = None, e
            continue
        stack.append(sub)
        value = None
