"""The file-level ``{-# ... #-}`` metadata sections (``dialect_resources``,
``external_resources``), parsed and checked as mlir-opt-22 parses them.

A section is one token of the grammar (``FILE_METADATA``, anywhere at the file's top
level, any number of them); :func:`parse_section` reads it:

    {-# dialect_resources: { builtin: { name: "0x<align><bytes>", ... }, ... },
        external_resources: { name: { key: "string" | true | false, ... } } #-}

with mlir-opt's messages: unknown keys, non-identifier keys, a missing ``:`` / ``{`` /
``,``, an unregistered dialect ("dialect 'foo' is unknown"), a registered dialect with no
resources ("unexpected 'resource' section for dialect 'arith'"), a builtin entry that is
not a hex blob of at least four bytes whose first four (the alignment, little-endian) are
a power of two, an external entry that is not a string or a boolean, and string literals
(escapes, a string not closed on its line). The blobs are kept as their text (never
decoded beyond the alignment) and printed back in one section, as mlir-opt prints the
dialect resources it keeps (external resources, which it has no handler for, are
dropped as mlir-opt drops them)."""

from __future__ import annotations

import re

from bufferlog.core.regex import compile as compile_regex

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

#: dialects mlir-opt-22 registers (a resource section of any other is "unknown")
REGISTERED = frozenset("""
acc affine amdgpu amx arith arm_neon arm_sme arm_sve async bufferization builtin cf complex
dlti emitc func gpu index irdl linalg llvm math memref mesh ml_program mpi nvgpu nvvm omp
pdl pdl_interp polynomial ptr quant rocdl scf shape shard smt sparse_tensor spirv tensor
tosa transform ub vector wasmssa x86vector xegpu xevm
""".split())

_TOKEN = compile_regex(
    r"(?P<blank>(?:[ \t\r\n\f]++|//[^\n]*+)++)"
    r"|(?P<open>\{-#)|(?P<close>#-\})"
    r'|(?P<str>"(?:[^"\\\n]++|\\.)*+"?)'
    r"|(?P<id>[A-Za-z_][A-Za-z0-9_$.]*+)"
    r"|(?P<int>[0-9]++)"
    r"|(?P<p>[{}:,])|(?P<other>.)", re.S)
_ESCAPE = compile_regex(r'\\(?:[0-9A-Fa-f]{2}|[nt"\\]|(.))', re.S)
_HEX_DIGITS = compile_regex(r"[0-9A-Fa-f]*+")


class ResourceError(Exception):
    """``message`` at ``offset`` of the section's text; ``at_previous``: right after the
    previous token (mlir-opt's place for a missing token)."""

    def __init__(self, message: str, offset: int, at_previous: bool = False):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.at_previous = at_previous


class Resources:
    """The dialect resources of a file: dialect -> [(key, value text)] in order."""

    __slots__ = ("dialects",)

    def __init__(self) -> None:
        self.dialects: dict[str, list[tuple[str, str]]] = {}

    def text(self) -> str | None:
        """One ``{-# ... #-}`` section with every dialect resource (None if there are
        none)."""
        groups = [(d, es) for d, es in self.dialects.items() if es]
        if not groups:
            return None
        out = ["{-#", "  dialect_resources: {"]
        for i, (d, entries) in enumerate(groups):
            out.append(f"    {d}: {{")
            for j, (k, v) in enumerate(entries):
                key = k if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", k) else '"' + k + '"'
                out.append(f"      {key}: {v}" + ("," if j + 1 < len(entries) else ""))
            out.append("    }" + ("," if i + 1 < len(groups) else ""))
        out += ["  }", "#-}"]
        return "\n".join(out) + "\n"


def _closed(text: str, a: int, b: int) -> bool:
    """The string token ``text[a:b]`` ends with a closing quote (not an escaped one)."""
    if b - a < 2 or text[b - 1] != '"':
        return False
    j = b - 2
    while j > a and text[j] == "\\":
        j -= 1
    return (b - 2 - j) % 2 == 0


class _Reader:
    """Tokens of a section as ``(kind, start, end)`` (a multi-megabyte blob string is
    sliced once, when it is kept), read left to right."""

    def __init__(self, text: str):
        self.text = text
        self.toks = [(m.lastgroup, m.start(), m.end()) for m in _TOKEN.finditer(text)
                     if m.lastgroup != "blank"]
        self.toks.append(("eof", len(text), len(text)))
        self.i = 0
        for kind, a, b in self.toks:
            if kind == "str":
                self._check_string(a, b)

    def _check_string(self, a: int, b: int) -> None:
        text = self.text
        if not _closed(text, a, b):
            raise ResourceError("expected '\"' in string literal", b)
        if text.find("\\", a, b) >= 0:
            for e in _ESCAPE.finditer(text, a, b):
                if e.group(1) is not None:
                    raise ResourceError("unknown escape in string literal", e.start())

    def spelling(self, k: int) -> str:
        kind, a, b = self.toks[k]
        return self.text[a:b]

    @property
    def tok(self) -> tuple[str, str, int]:
        kind, a, b = self.toks[self.i]
        return kind, ("" if kind == "str" else self.text[a:b]), a

    def at(self, s: str) -> bool:
        kind, a, b = self.toks[self.i]
        return kind not in ("str", "other", "eof") and self.text.startswith(s, a) and b - a == len(s)

    def expect(self, s: str, message: str) -> None:
        if not self.at(s):
            raise ResourceError(message, self.tok[2], at_previous=True)
        self.i += 1

    def key(self, message: str, strings: bool = False) -> tuple[str, int]:
        kind, a, b = self.toks[self.i]
        if kind == "id" or (strings and kind == "str"):
            self.i += 1
            return (self.text[a + 1:b - 1] if kind == "str" else self.text[a:b]), a
        raise ResourceError(message, a, at_previous=kind == "eof")

    def entries(self, element: Any, end: str, message: str) -> None:
        """``element (, element)* end`` or just ``end``."""
        if self.at(end):
            self.i += 1
            return
        while True:
            element()
            if self.at(","):
                self.i += 1
                continue
            if self.at(end):
                self.i += 1
                return
            raise ResourceError(message, self.tok[2], at_previous=True)


def _blob_error(key: str, text: str, a: int, b: int) -> str | None:
    """Why the string ``text[a:b]`` is no hex blob for ``key`` (None if it is one)."""
    if not text.startswith('"0x', a) or (b - a - 4) % 2 or \
            _HEX_DIGITS.fullmatch(text, a + 3, b - 1) is None:
        return f"expected hex string blob for key '{key}'"
    if b - a - 4 < 8:
        return f"expected hex string blob for key '{key}' to encode alignment in first 4 bytes"
    align = int.from_bytes(bytes.fromhex(text[a + 3:a + 11]), "little")
    if align & (align - 1):
        return (f"expected hex string blob for key '{key}' to encode alignment in first 4 "
                f"bytes, but got non-power-of-2 value: {align}")
    return None


def parse_section(text: str, into: Resources) -> None:
    """Read one ``{-# ... #-}`` section (its whole text) into ``into``."""
    r = _Reader(text)
    r.expect("{-#", "expected '{-#'")

    def top_entry() -> None:
        name, at = r.key("expected identifier key in file metadata dictionary")
        r.expect(":", "expected ':'")
        if name == "dialect_resources":
            r.expect("{", "expected '{'")
            r.entries(dialect_entry, "}", "expected ',' or '}'")
        elif name == "external_resources":
            r.expect("{", "expected '{'")
            r.entries(external_entry, "}", "expected ',' or '}'")
        else:
            raise ResourceError(f"unknown key '{name}' in file metadata dictionary", at)

    def dialect_entry() -> None:
        name, at = r.key("expected identifier key for 'resource' entry")
        r.expect(":", "expected ':'")
        if name not in REGISTERED:
            raise ResourceError(f"dialect '{name}' is unknown", at)
        r.expect("{", "expected '{'")
        if name != "builtin":
            raise ResourceError(f"unexpected 'resource' section for dialect '{name}'",
                                r.tok[2])
        blobs = into.dialects.setdefault(name, [])

        def blob() -> None:
            key, _ = r.key("expected identifier key for 'resource' entry", strings=True)
            r.expect(":", "expected ':'")
            kind, a, b = r.toks[r.i]
            bad = _blob_error(key, text, a, b) if kind == "str" else \
                f"expected hex string blob for key '{key}'"
            if bad:
                raise ResourceError(bad, a)
            r.i += 1
            blobs.append((key, text[a:b]))

        r.entries(blob, "}", "expected ',' or '}'")

    def external_entry() -> None:
        r.key("expected identifier key for 'resource' entry")
        r.expect(":", "expected ':'")
        r.expect("{", "expected '{'")

        def value() -> None:
            key, _ = r.key("expected identifier key for 'resource' entry", strings=True)
            r.expect(":", "expected ':'")
            kind, v, vat = r.tok
            if kind != "str" and (kind != "id" or v not in ("true", "false")):
                raise ResourceError(f"expected string value for key '{key}'", vat)
            r.i += 1

        r.entries(value, "}", "expected ',' or '}'")

    r.entries(top_entry, "#-}", "expected ',' or '#-}'")
