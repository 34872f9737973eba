"""Parse-tree nodes produced by ``frontend/lalr.py`` and read by the dialect builders.

They have the shape lark's ``Tree`` / ``Token`` have (``tree.data``, ``tree.children``,
``token.type``, ``token.line``, ``token.column``), so builders read the same trees a
lark parser with ``propagate_positions=True, maybe_placeholders=True`` would build,
without importing lark at run time. Positions: ``Tree.first`` is the token where the node
starts (lark's ``meta.line/column``; ``None`` for a node that spans no text) and
``Tree.cfirst`` the start of its container (lark's ``meta.container_*``: differs when a
``?rule`` passed the node up through filtered punctuation).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any


class Token(str):
    """A lexed terminal: the matched text, its terminal name and 1-based position."""

    __slots__ = ("type", "start_pos", "line", "column")

    def __new__(cls, type: str, value: str, start_pos: int | None = None,
                line: int | None = None, column: int | None = None) -> Token:
        t = str.__new__(cls, value)
        t.type = type
        t.start_pos = start_pos
        t.line = line
        t.column = column
        return t

    @property
    def value(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Token, (self.type, str(self), self.start_pos, self.line, self.column))


class Tree:
    """A reduced grammar rule (or its alias): ``data`` names it, ``children`` holds
    sub-trees, tokens and ``None`` placeholders of absent optional parts."""

    __slots__ = ("data", "children", "first", "cfirst")

    def __init__(self, data: str, children: list[Any], first: Token | None = None,
                 cfirst: Token | None = None):
        self.data = data
        self.children = children
        self.first = first
        self.cfirst = cfirst if cfirst is not None else first

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tree):
            return NotImplemented
        return self.data == other.data and self.children == other.children

    def __hash__(self) -> int:
        return hash((self.data, tuple(self.children)))

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"
