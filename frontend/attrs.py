"""MLIR attributes as immutable values whose ``str()`` is the MLIR spelling.

Payloads the analysis never looks inside (dense literals, dialect attributes) keep
their source text verbatim, so printing them is exact; affine maps and integer sets keep
their text for printing and are parsed into a structure (``frontend/affine.py``).
"""

from __future__ import annotations

from bufferlog.core.records import value_class
from bufferlog.core.regex import compile as compile_regex

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any


class Attr:
    """Base class of all attributes."""

    def __str__(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


@value_class
class UnitAttr(Attr):
    def __str__(self) -> str:
        return "unit"


@value_class
class BoolAttr(Attr):
    value: bool

    def __str__(self) -> str:
        return "true" if self.value else "false"


@value_class
class IntegerAttr(Attr):
    value: int
    type: Any = None  # None prints as the default (i64)

    def __str__(self) -> str:
        return f"{self.value} : {self.type}" if self.type is not None else str(self.value)


@value_class
class FloatAttr(Attr):
    value: float
    type: Any = None
    text: str | None = None  # source spelling (e.g. "0xFF800000", "1.0"), printed verbatim

    def literal(self) -> str:
        return self.text if self.text is not None else repr(self.value)

    def __str__(self) -> str:
        lit = self.literal()
        return f"{lit} : {self.type}" if self.type is not None else lit


_NEEDS_ESCAPE = compile_regex(r'[\x00-\x1f"\\\x7f]')


def escape_string(s: str) -> str:
    """``s`` as an MLIR string literal: quotes, backslashes, newlines, tabs and the other
    control characters escaped."""
    if _NEEDS_ESCAPE.search(s) is None:  # most strings: nothing to escape
        return '"' + s + '"'
    out = []
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\{o:02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


@value_class
class StringAttr(Attr):
    value: str
    type: Any = None

    def __str__(self) -> str:
        s = escape_string(self.value)
        return f"{s} : {self.type}" if self.type is not None else s


@value_class
class ArrayAttr(Attr):
    elems: tuple[Attr, ...]

    def __str__(self) -> str:
        return "[" + ", ".join(map(str, self.elems)) + "]"


@value_class
class DenseArrayAttr(Attr):
    """``array<i64: 1, 2>``; ``elem`` is the element type spelling."""

    elem: str
    values: tuple[Any, ...]

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.elem}>"
        vals = ", ".join(("true" if v else "false") if self.elem == "i1" else str(v)
                         for v in self.values)
        return f"array<{self.elem}: {vals}>"


@value_class
class DictAttr(Attr):
    items: tuple[tuple[str, Attr], ...]

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.items:
            if k == key:
                return v
        return default

    def __str__(self) -> str:
        return "{" + ", ".join(format_named_attr(k, v) for k, v in self.items) + "}"


@value_class
class TypeAttr(Attr):
    type: Any

    def __str__(self) -> str:
        return str(self.type)


@value_class
class SymbolRefAttr(Attr):
    root: str
    nested: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "::".join(format_symbol(s) for s in (self.root, *self.nested))


@value_class
class AffineMapAttr(Attr):
    """``affine_map<(d0, d1)[s0] -> (d0 + s0, d1)>``; ``text`` is the inside of the
    ``<...>`` as written (printed back verbatim), ``map`` its structure
    (``frontend/affine.py``: dimensions, symbols, result expressions). ``alias`` names the
    ``#map`` alias it was written with, if any."""

    text: str
    alias: str | None = None

    @property
    def map(self) -> Any:
        from .affine import parse_map
        return parse_map(self.text)

    def __str__(self) -> str:
        return f"#{self.alias}" if self.alias else f"affine_map<{self.text}>"


@value_class
class IntegerSetAttr(Attr):
    """``affine_set<(d0)[s0] : (d0 - s0 >= 0)>``; ``set`` is its structure."""

    text: str
    alias: str | None = None

    @property
    def set(self) -> Any:
        from .affine import parse_set
        return parse_set(self.text)

    def __str__(self) -> str:
        return f"#{self.alias}" if self.alias else f"affine_set<{self.text}>"


@value_class
class DenseElementsAttr(Attr):
    """``dense<...> : type``; ``text`` is the inside of ``dense<...>`` verbatim."""

    text: str
    type: Any

    def __str__(self) -> str:
        return f"dense<{self.text}> : {self.type}"

    def is_splat(self) -> bool:
        return not self.text.lstrip().startswith("[")


@value_class
class DenseResourceAttr(Attr):
    handle: str
    type: Any

    def __str__(self) -> str:
        return f"dense_resource<{self.handle}> : {self.type}"


@value_class
class StridedLayoutAttr(Attr):
    """``strided<[s0, s1], offset: o>``; ``None`` means dynamic (``?``)."""

    strides: tuple[int | None, ...]
    offset: int | None = 0

    def __str__(self) -> str:
        st = ", ".join("?" if s is None else str(s) for s in self.strides)
        if self.offset == 0:
            return f"strided<[{st}]>"
        off = "?" if self.offset is None else str(self.offset)
        return f"strided<[{st}], offset: {off}>"


@value_class
class OpaqueAttr(Attr):
    """Any attribute the frontend does not model (``#gpu.address_space<...>``,
    ``#foo<...>``, an alias reference), kept verbatim."""

    text: str

    def __str__(self) -> str:
        return self.text


_BARE = __import__("re").compile(r"^[A-Za-z_][A-Za-z0-9_$.]*$")


def format_symbol(name: str) -> str:
    return "@" + (name if _BARE.match(name) else escape_string(name))


def format_named_attr(key: str, value: Attr) -> str:
    k = key if _BARE.match(key) else escape_string(key)
    return k if isinstance(value, UnitAttr) else f"{k} = {value}"


def dense_i64(values: list[int] | tuple[int, ...]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(values))
