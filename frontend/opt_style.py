"""mlir-opt's spelling of float literals, for output meant to be read by FileCheck lines
written against mlir-opt (``analyze``).

mlir-opt prints a float in exponent form with six digits after the point
(``1.000000e+00``) when that reads back as the same value; otherwise in its natural
precision (``3.14159274``, ``1.23456775E-4``: 9 significant digits for f32, 17 for f64,
trailing zeros dropped, plain notation unless the exponent is far from the digits); and
when that has no ``.`` (an integral value such as ``16777216``), or for inf and NaN, as
the bit pattern in hex (``0x4B800000``). Dense literals print each element so, and a
literal whose elements are all equal as a splat."""

from __future__ import annotations

import math
import struct

from bufferlog.core.regex import compile as compile_regex

# significand bits and the struct format of each float type mlir-opt prints in decimal
_FLOATS = {"f64": (53, "d", "Q"), "f32": (24, "f", "I")}
_NUMBER = compile_regex(r"-?(?:0x[0-9A-Fa-f]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)|true|false")


def _rounds(value: float, fmt: str) -> float:
    return struct.unpack(fmt, struct.pack(fmt, value))[0] if fmt == "f" else value


def _digits(value: float, precision: int) -> tuple[str, int]:
    """``value`` as (digits, exponent of the last digit) with at most ``precision``
    significant digits, as LLVM's APFloat::toString makes them: the exact decimal value,
    cut by integer division to a few digits more than needed, then rounded half up on the
    first dropped digit; trailing zeros dropped."""
    num, den = abs(value).as_integer_ratio()
    if num == 0:
        return "0", 0
    t = den.bit_length() - 1  # den is a power of two
    sig, exp = num * 5 ** t, -t
    need = (precision * 196 + 58) // 59
    if sig.bit_length() > need:
        k = (sig.bit_length() - need) * 59 // 196
        if k:
            sig //= 10 ** k
            exp += k
    d = str(sig)
    exp += len(d) - len(d.rstrip("0"))
    d = d.rstrip("0")
    if len(d) > precision:
        drop = len(d) - precision
        if d[precision] < "5":
            d = d[:precision]
        else:
            d = str(int(d[:precision]) + 1)
            if len(d) > precision:  # carried through every digit
                d = d[:precision]
                drop += 1
        exp += drop + len(d) - len(d.rstrip("0"))
        d = d.rstrip("0")
    return d, exp


def _scientific(digits: str, exp: int, pad_to: int | None) -> str:
    """``d.ddd`` and an exponent: mlir-opt's first form (``pad_to`` digits after the point,
    lower-case ``e``, two exponent digits at least) or its natural-precision one."""
    e = exp + len(digits) - 1
    frac = digits[1:]
    if pad_to is not None:
        frac = frac.ljust(pad_to, "0")
        return f"{digits[0]}.{frac}e{'+' if e >= 0 else '-'}{abs(e):02d}"
    return f"{digits[0]}.{frac or '0'}E{'+' if e >= 0 else '-'}{abs(e)}"


def _natural(digits: str, exp: int, precision: int) -> str:
    """APFloat's default spelling: plain digits unless more than three zeros of padding
    (or more digits than the precision) would be needed."""
    n = len(digits)
    if exp >= 0:
        if exp > 3 or n + exp > precision:
            return _scientific(digits, exp, None)
        return digits + "0" * exp
    msd = exp + n - 1
    if msd < 0 and -msd > 3:
        return _scientific(digits, exp, None)
    whole = exp + n
    if whole > 0:
        return digits[:whole] + "." + digits[whole:]
    return "0." + "0" * -whole + digits


def format_float(value: float, ftype: str) -> str | None:
    """mlir-opt's spelling of ``value`` as an ``ftype`` literal (None: a type this module
    does not know; the caller keeps its own spelling)."""
    if ftype not in _FLOATS:
        return None
    bits, fmt, ifmt = _FLOATS[ftype]
    value = _rounds(value, fmt)
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if not (math.isinf(value) or math.isnan(value)):
        digits, exp = _digits(value, 6)
        text = sign + _scientific(digits, exp, 6)
        if _rounds(float(text), fmt) == value:
            return text
        precision = 2 + bits * 59 // 196
        text = sign + _natural(*_digits(value, precision), precision)
        if "." in text:
            return text
    raw = struct.unpack(ifmt, struct.pack(fmt, value))[0]
    return f"0x{raw:X}"


def _elem_type(tensor_type) -> str:
    return str(getattr(tensor_type, "elem", "") or "")


def _literal_value(tok: str) -> float | None:
    if tok.startswith(("0x", "-0x")):
        return None
    try:
        return float(tok)
    except ValueError:
        return None


def format_dense(text: str, tensor_type) -> str:
    """The inside of ``dense<...>`` as mlir-opt prints it: float elements in its spelling,
    equal elements as a splat. Text this cannot read (hex blobs, complex or string
    elements) is returned unchanged."""
    elem = _elem_type(tensor_type)
    stripped = text.strip()
    if stripped.startswith('"') or "(" in stripped:
        return text
    toks = _NUMBER.findall(stripped)
    rest = _NUMBER.sub("", stripped)
    if any(ch not in "[], \n\t" for ch in rest) or not toks:
        return text
    if elem in _FLOATS:
        vals = [_literal_value(t) for t in toks]
        if None in vals:
            return text
        out = [format_float(v, elem) for v in vals]
    elif elem == "i1":
        out = ["true" if t in ("true", "1") else "false" for t in toks]
    elif elem.startswith(("i", "si", "ui")) or elem == "index":
        try:
            out = [str(int(t, 0)) for t in toks]
        except ValueError:
            return text
    else:
        return text
    if len(set(out)) == 1 and len(out) > 1 or not stripped.startswith("["):
        return out[0]
    it = iter(out)
    return _NUMBER.sub(lambda m: next(it), stripped)


_REF = compile_regex(r"#([A-Za-z_][\w.$\-]*)")
_MAP_TOKEN = compile_regex(r"[A-Za-z_][\w]*|[0-9]+|->|\S")
_WORD_OPS = ("floordiv", "ceildiv", "mod")


def _map_end(text: str, start: int) -> int:
    """The index of the ``>`` closing ``affine_map<`` whose body starts at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ">" and depth == 0 and text[i - 1] != "-":
            return i
    return -1


def canonical_map(text: str) -> str:
    """An affine map's text as mlir-opt spells it: dimensions ``d0, d1, ...``, symbols
    ``s0, ...``, one space around operators and after commas (the expressions are not
    simplified)."""
    toks = _MAP_TOKEN.findall(text)
    if "->" not in toks:
        return text
    head = toks[:toks.index("->")]
    names: dict[str, str] = {}
    kind, k = "d", 0
    for t in head:
        if t == "[":
            kind, k = "s", 0
        elif t[0].isalpha() or t[0] == "_":
            names[t] = f"{kind}{k}"
            k += 1
    out, prev = [], ""
    for t in toks:
        t = names.get(t, t)
        if t == ",":
            out.append(", ")
        elif t in ("+", "*", "->", *_WORD_OPS) or (t == "-" and (prev[:1].isalnum() or prev == ")")):
            out.append(f" {t} ")
        else:
            out.append(t)
        prev = t
    return "".join(out)


def alias_maps(body: str, alias_lines: list[str], aliases: dict) -> str:
    """``body`` (a printed module) with every affine map, by alias or written out, named
    as mlir-opt names them: ``#map``, ``#map1``, ... in order of first use, defined above
    the module. ``alias_lines`` are the input's alias definitions; of those that are no
    maps, only the ones the body still refers to are kept."""
    from . import attrs as A

    maps = {k: canonical_map(a.text) for k, a in aliases.items() if isinstance(a, A.AffineMapAttr)}
    names: dict[str, str] = {}  # canonical map text -> #map name

    def name(canon: str) -> str:
        if canon not in names:
            names[canon] = "#map" + (str(len(names)) if names else "")
        return names[canon]

    out, i = [], 0
    while True:
        j = body.find("affine_map<", i)
        h = body.find("#", i)
        if h >= 0 and (j < 0 or h < j):
            m = _REF.match(body, h)
            if m is not None and m.group(1) in maps:
                out.append(body[i:h] + name(maps[m.group(1)]))
                i = m.end()
            else:
                out.append(body[i:h + 1])
                i = h + 1
            continue
        if j < 0:
            out.append(body[i:])
            break
        end = _map_end(body, j + len("affine_map<"))
        if end < 0:
            out.append(body[i:])
            break
        out.append(body[i:j] + name(canonical_map(body[j + len("affine_map<"):end])))
        i = end + 1
    text = "".join(out)
    keep = [ln for ln in alias_lines
            if ln.split(" ", 1)[0][1:] not in maps and ln.split(" ", 1)[0] in text]
    defs = [f"{n} = affine_map<{canon}>" for canon, n in names.items()]
    return "\n".join([*defs, *keep, text]) + "\n"


def format_int(value: int, itype: str) -> str:
    """An integer as mlir-opt prints it for ``itype``: a signless ``iN`` as a signed N-bit
    value (``255 : i8`` prints ``-1``)."""
    if itype.startswith("i") and itype[1:].isdigit() and itype != "i1":
        n = int(itype[1:])
        value &= (1 << n) - 1
        if value >> (n - 1):
            value -= 1 << n
    return str(value)


def format_string(s: str) -> str:
    """A string literal as mlir-opt escapes it: ``\\\\`` for a backslash, two hex digits for
    a quote and for any byte that is not printable ASCII (UTF-8 bytes included)."""
    out = ['"']
    for byte in s.encode():
        ch = chr(byte)
        if ch == "\\":
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F and ch != '"':
            out.append(ch)
        else:
            out.append(f"\\{byte:02X}")
    out.append('"')
    return "".join(out)
