"""The text of a ``dense<...>`` literal checked as MLIR's parser reads it, without
decoding it: numbers (or ``true`` / ``false``) separated by commas, nested in brackets
as deep as the type's rank, as many as its static shape holds (or one, a splat);
integers only for integer and index elements (and there no ``-0``), no decimal integer
for float elements, hex floats no wider than their type. ``1.-1``, ``.5``, ``1e3``,
``120`` for ``f32`` or a missing element are errors, as in mlir-opt. Hex blobs
(``"0x..."``) and complex elements (``(re, im)``) are left to other checks. One
regular-expression match over a well-formed text: about 0.4 s for a 20 MB literal."""

from __future__ import annotations

import math
import re

from bufferlog.core.regex import compile as compile_regex

from . import types as T

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

_HEXNUM = r"0[xX][0-9A-Fa-f]++"
_ANY = rf"(?:-?(?:{_HEXNUM}|[0-9]++(?:\.[0-9]*+(?:[eE][-+]?[0-9]++)?)?)|true|false)"
_INT = rf"(?:-?(?:{_HEXNUM}|[0-9]++)|true|false)"
_REAL = rf"(?:-?(?:{_HEXNUM}|[0-9]++\.[0-9]*+(?:[eE][-+]?[0-9]++)?)|true|false)"


def _elements(num: str) -> re.Pattern[str]:
    """Numbers ``num`` separated by commas, each after any ``[`` and before any ``]``."""
    item = rf"(?:\s*+\[)*+\s*+{num}(?:\s*+\])*+"
    return compile_regex(rf"{item}(?:\s*+,{item})*+\s*+")


_ELEMENTS, _INT_ELEMENTS, _REAL_ELEMENTS = _elements(_ANY), _elements(_INT), _elements(_REAL)
_EMPTY = compile_regex(r"\s*(?:\[\s*)+(?:\]\s*)+")
_FLOAT = compile_regex(r"(?<![0-9A-Za-z])-?[0-9]+\.")
#: a whole number token: at the start, after a blank, a comma or a bracket
_DECIMAL_INT = compile_regex(r"(?:^|[\s,\[])-?([0-9]++)(?![.0-9xX])")
_MINUS_ZERO = compile_regex(r"(?:^|[\s,\[])-(0++)(?![.0-9xX])")
_HEX = compile_regex(r"0[xX]([0-9A-Fa-f]+)")


def dense_syntax_error(body: str, t: Any) -> tuple[int, str] | None:
    """(offset in ``body``, message) of the first thing mlir-opt rejects in
    ``dense<body> : t``, or None. One match over the text when it is well formed (the
    element type's numbers only); the others find the reason when it is not."""
    if body.lstrip().startswith(('"', "(")) or "(" in body or _EMPTY.fullmatch(body):
        return None
    elem = getattr(t, "elem", None)
    ints, reals = isinstance(elem, T.IntegerType | T.IndexType), isinstance(elem, T.FloatType)
    fast = _INT_ELEMENTS if ints else _REAL_ELEMENTS if reals else _ELEMENTS
    if fast.fullmatch(body) is None:
        m = _ELEMENTS.match(body)
        if m is None or m.end() != len(body):
            at = m.end() if m else 0
            while at < len(body) and body[at].isspace():
                at += 1
            got = body[at] if at < len(body) else ">"
            return at, f"unexpected '{got}' in a dense elements literal (expected a number, ',' or ']')"
        if ints:
            f = _FLOAT.search(body)
            return f.start() if f else 0, "expected integer elements, but parsed floating-point"
        i = _DECIMAL_INT.search(body)
        return i.start(1) if i else 0, "unexpected decimal integer literal for a floating point value"
    if ints and "-0" in body:
        z = _MINUS_ZERO.search(body)
        if z is not None:  # mlir negates the parsed 0 and finds no sign bit
            return z.start(1), "integer constant out of range for type"
    if reals and ("x" in body or "X" in body):
        for h in _HEX.finditer(body):
            if int(h.group(1), 16).bit_length() > elem.width:
                return h.start(), "hexadecimal float constant out of range for type"
    shape = getattr(t, "shape", None)
    stripped = body.lstrip()
    if shape is None or not stripped.startswith("[") or any(d is None for d in shape):
        return None
    depth = len(stripped) - len(stripped.lstrip("[ \t\n"))
    depth = stripped[:depth].count("[")
    count = body.count(",") + 1
    if depth != len(shape) or count != math.prod(shape):
        return (-len("dense<"),  # at the literal, where mlir-opt points
                f"inferred shape of elements literal ({depth} nested lists, {count} elements) "
                f"does not match type {t}")
    return None
