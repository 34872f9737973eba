"""The text of a ``dense<...>`` literal checked as MLIR's parser reads it, without
decoding it: numbers (or ``true`` / ``false``) separated by commas, nested in brackets
as deep as the type's rank, as many as its static shape holds (or one, a splat);
integers only for integer and index elements (and there no ``-0``), no decimal integer
for float elements, hex floats no wider than their type. ``1.-1``, ``.5``, ``1e3``,
``120`` for ``f32`` or a missing element are errors, as in mlir-opt. Hex blobs
(``"0x..."``) and complex elements (``(re, im)``) are left to other checks. One
regular-expression match over a well-formed text: about 0.4 s for a 20 MB literal."""

from __future__ import annotations

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
    ``dense<body> : t``, or None. A well-formed literal costs two passes in C: one regex
    match (the element type's numbers) and its bracket skeleton (``[[,],[,]]``) compared
    with the one ``t``'s shape calls for; anything else is parsed token by token
    (:func:`structure_error`) for mlir-opt's first error."""
    if body.lstrip().startswith('"'):
        return None  # a hex blob or a string splat: other checks
    shape = getattr(t, "shape", None)
    static = shape is not None and all(d is not None for d in shape)
    if "(" in body or '"' in body:  # complex or string elements: structure and shape only
        bad = structure_error(body, shape if static else None)
        if bad is None and shape is not None and not static:
            return -len("dense<"), "elements literal type must have static shape"
        return bad
    elem = getattr(t, "elem", None)
    ints, reals = isinstance(elem, T.IntegerType | T.IndexType), isinstance(elem, T.FloatType)
    fast = _INT_ELEMENTS if ints else _REAL_ELEMENTS if reals else _ELEMENTS
    well_formed = fast.fullmatch(body) is not None or _NO_ELEMENTS.fullmatch(body) is not None
    nested = body.lstrip().startswith("[")
    odd = (not nested and any(c in body for c in ",[]")) or (nested and not static)
    if not well_formed or odd or (nested and not rectangular(body, shape)):
        bad = structure_error(body, shape if static else None)
        if bad is not None:
            return bad
    if shape is not None and not static:
        return -len("dense<"), "elements literal type must have static shape"
    if not well_formed:
        if ints:
            f = _FLOAT.search(body)
            return f.start() if f else 0, "expected integer elements, but parsed floating-point"
        if reals:
            i = _DECIMAL_INT.search(body)
            return i.start(1) if i else 0, "unexpected decimal integer literal for a floating point value"
        return None
    if ints and "-0" in body:
        z = _MINUS_ZERO.search(body)
        if z is not None:  # mlir negates the parsed 0 and finds no sign bit
            return z.start(1), "integer constant out of range for type"
    if reals and ("x" in body or "X" in body):
        for h in _HEX.finditer(body):
            if int(h.group(1), 16).bit_length() > elem.width:
                return h.start(), "hexadecimal float constant out of range for type"
    return None


_NO_ELEMENTS = compile_regex(r"[\s\[\],]*+")
_NONBLANK = compile_regex(r"\S")
_ONE_COMMA = compile_regex(r"\s*+,\s*+")


def rectangular(body: str, shape: tuple[int, ...]) -> bool:
    """True when the brackets of ``body`` (whose elements and commas are known to be
    well formed) nest exactly as ``shape`` says: each list of ``shape[d]`` entries,
    sublists joined by one comma, nothing but blanks around them. Walks the brackets
    only (two for a 1-d literal); elements are counted by their commas, in C."""
    rank = len(shape)
    counts: list[int] = []  # entries seen by each open list
    last, prev = -1, ""
    find = body.find
    nxt_open, nxt_close = find("["), find("]")
    while nxt_open >= 0 or nxt_close >= 0:  # str.find: memchr, no per-character loop
        if nxt_close < 0 or 0 <= nxt_open < nxt_close:
            at, c = nxt_open, "["
            nxt_open = find("[", at + 1)
        else:
            at, c = nxt_close, "]"
            nxt_close = find("]", at + 1)
        depth = len(counts)
        if c == "[":
            if depth >= rank:
                return False
            if prev == "]":  # a further sublist: one comma since the previous one
                if _ONE_COMMA.fullmatch(body, last + 1, at) is None:
                    return False
            elif _NONBLANK.search(body, last + 1, at):
                return False
            if counts:
                counts[-1] += 1
            counts.append(0)
        else:
            if depth == 0:
                return False
            if prev == "[":  # a list of elements
                if depth != rank:
                    return False
                n = body.count(",", last + 1, at) + 1 \
                    if _NONBLANK.search(body, last + 1, at) else 0
                if n != shape[depth - 1]:
                    return False
            elif _NONBLANK.search(body, last + 1, at) or counts[-1] != shape[depth - 1]:
                return False
            counts.pop()
            if not counts and _NONBLANK.search(body, at + 1):
                return False
        last, prev = at, c
    return not counts and prev == "]"


_TOKEN = compile_regex(
    r"(?P<blank>[ \t\r\n\f]++)|(?P<p>[\[\],()\-])|(?P<str>\"(?:[^\"\\]++|\\.)*+\")"
    r"|(?P<num>0x[0-9A-Fa-f]++|[0-9]++(?:\.[0-9]*+(?:[eE][-+]?[0-9]++)?)?)"
    r"|(?P<id>[A-Za-z_][A-Za-z0-9_$.]*+)|(?P<other>.)", re.S)


def structure_error(body: str, shape: tuple[int, ...] | None) -> tuple[int, str] | None:
    """mlir-opt's first error in the structure of ``dense<body>`` (nested lists of
    elements, each list's sublists of one shape, a single element or list in all) and
    then in its shape against the type's ``shape``; None when both are fine. Iterative:
    no recursion on the nesting depth."""
    toks = [(m.lastgroup, m.group(), m.start()) for m in _TOKEN.finditer(body)
            if m.lastgroup != "blank"]
    toks.append(("eof", ">", len(body)))
    i = 0

    def wrong(k: int) -> int:  # mlir-opt's place for "expected X": after the last token
        j = toks[k][2]
        while j > 0 and body[j - 1].isspace():
            j -= 1
        return j

    def element(k: int) -> tuple[int, tuple[int, str] | None]:
        kind, text, at = toks[k]
        if kind in ("num", "str") or text in ("true", "false"):
            return k + 1, None
        if text == "-":
            if toks[k + 1][0] != "num":
                return k, (toks[k + 1][2], "expected integer or floating point literal")
            return k + 2, None
        if text == "(":  # a complex element: (re, im)
            k, bad = element(k + 1)
            if bad:
                return k, bad
            if toks[k][1] != ",":
                return k, (wrong(k), "expected ',' between complex elements")
            k, bad = element(k + 1)
            if bad:
                return k, bad
            if toks[k][1] != ")":
                return k, (wrong(k), "expected ')' after complex elements")
            return k + 1, None
        return k, (at, "expected element literal of primitive type")

    # each open list: [number of elements, shape of the first one (None until known)]
    stack: list[list[Any]] = []
    dims: list[int] | None = None
    if toks[0][1] != "[":
        i, bad = element(0)
        if bad:
            return bad
        dims = []
    else:
        stack.append([0, None])
        i = 1
        if toks[i][1] == "]":
            stack.pop()
            i += 1
            dims = [0]
        while stack:
            if toks[i][1] == "[":  # a sublist
                stack.append([0, None])
                i += 1
                if toks[i][1] != "]":
                    continue
                i += 1
                stack.pop()
                got: list[int] = [0]
            else:
                i, bad = element(i)
                if bad:
                    return bad
                got = []
            while True:  # ``got`` is the shape of an element of the innermost open list
                top = stack[-1]
                top[0] += 1
                if top[1] is None:
                    top[1] = got
                elif top[1] != got:
                    return toks[i][2], "tensor literal is invalid; ranks are not consistent " \
                                       "between elements"
                if toks[i][1] == ",":
                    i += 1
                    break
                if toks[i][1] != "]":
                    return wrong(i), "expected ']'"
                i += 1
                stack.pop()
                got = [top[0], *top[1]]
                if not stack:
                    dims = got
                    break
    if toks[i][0] != "eof":
        return wrong(i), "expected '>'"
    if dims and shape is not None and tuple(dims) != tuple(shape):
        return (-len("dense<"), f"inferred shape of elements literal ([{', '.join(map(str, dims))}]) "
                                f"does not match type ([{', '.join(map(str, shape))}])")
    return None
