"""Input text, shared by the API, the CLI and batch: bytes to text with a located error
for bad encodings, mlir-opt-style diagnostics (source line and caret), and
``--split-input-file`` chunks."""

from __future__ import annotations

from bufferlog.core.records import value_class
from bufferlog.core.regex import compile as compile_regex

from .errors import UserError

STDIN = "<stdin>"
SPLIT_MARKER = "// -----"
_LOC = compile_regex(r"^(?P<file>.*):(?P<line>\d+):(?P<col>\d+)$")


#: the first bytes of an MLIR bytecode file
BYTECODE_MAGIC = b"ML\xefR"


def decode(data: bytes, name: str) -> str:
    """UTF-8 text of ``data``; a bad byte inside a ``//`` comment becomes U+FFFD (mlir-opt
    accepts any bytes there), anywhere else it is a :class:`UserError` at its line:col
    (the column counts the characters before it on its line, plus one). MLIR bytecode is
    refused with the way to its text."""
    if data.startswith(BYTECODE_MAGIC):
        raise UserError("the input is MLIR bytecode, which bufferlog does not read: convert "
                        "it to text first (mlir-opt FILE -o FILE.mlir)", name)
    parts, pos = [], 0
    while True:
        try:
            parts.append(data[pos:].decode("utf-8"))
            return "".join(parts)
        except UnicodeDecodeError as e:
            start, end = pos + e.start, pos + e.end
            line_start = data.rfind(b"\n", 0, start) + 1
            if not _in_comment(data[line_start:start]):
                line = data.count(b"\n", 0, start) + 1
                col = len(data[line_start:start].decode("utf-8", "replace")) + 1
                raise UserError(f"input is not valid UTF-8 ({e.reason}: byte 0x{data[start]:02x})",
                                f"{name}:{line}:{col}") from None
            parts.append(data[pos:start].decode("utf-8") + "\ufffd")
            pos = end


def _in_comment(prefix: bytes) -> bool:
    """The text after ``prefix`` (the start of a line) is inside a ``//`` comment: the
    prefix holds ``//`` outside string literals."""
    quoted = escaped = False
    for i, c in enumerate(prefix):
        if quoted:
            escaped, quoted = c == 0x5C and not escaped, quoted and (c != 0x22 or escaped)
        elif c == 0x22:
            quoted = True
        elif c == 0x2F and prefix[i + 1:i + 2] == b"/":
            return True
    return False


def render(err: UserError, sources: dict[str, str]) -> str:
    """``file:line:col: error: message``, then, when the file's text is known (``sources``
    by name, else read from disk), its line and a caret under the column, as mlir-opt
    prints."""
    first, _, rest = str(err).partition("\n")  # several diagnostics: caret under the first
    return "\n".join([first, *caret_lines(err.loc, sources)] + ([rest] if rest else []))


def caret_lines(loc: object, sources: dict[str, str]) -> list[str]:
    """The source line of ``loc`` (``file:line:col``) and a caret under its column; no
    lines when the location or the file's text is unknown."""
    m = _LOC.match(str(loc)) if loc else None
    if m is None:
        return []
    text = sources.get(m["file"])
    if text is None:
        try:
            with open(m["file"], encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            return []
    lines = text.split("\n")
    line, col = int(m["line"]), int(m["col"])
    if not 1 <= line <= len(lines) or col < 1:
        return []
    src = lines[line - 1].rstrip("\r")
    return [src, "".join(c if c == "\t" else " " for c in src[:col - 1]) + "^"]


@value_class
class Chunk:
    """A piece of a ``--split-input-file`` input. ``text`` keeps the original line and
    column numbers: the lines before the chunk are blank and its first line is indented
    to where the chunk starts, so every location points into the whole file."""

    text: str
    first_line: int  # 1-based line of the original file where the chunk starts


def split_input(text: str, marker: str = SPLIT_MARKER) -> list[Chunk]:
    """Split at every ``marker`` (as mlir-opt's ``--split-input-file``: a chunk starts
    right after the marker)."""
    chunks, pos = [], 0
    while True:
        end = text.find(marker, pos)
        piece = text[pos:] if end < 0 else text[pos:end]
        line_start = text.rfind("\n", 0, pos) + 1
        lines_before = text.count("\n", 0, pos)
        pad = "\n" * lines_before + " " * (pos - line_start)
        chunks.append(Chunk(pad + piece, lines_before + 1))
        if end < 0:
            return chunks
        pos = end + len(marker)


def join_outputs(outputs: list[str | None]) -> str:
    """Chunk outputs joined like mlir-opt's: each output then a blank line, separated by
    ``// -----`` lines; a failed chunk (None) contributes nothing."""
    return (SPLIT_MARKER + "\n").join("" if o is None else o + "\n" for o in outputs)
