"""Facts in and out: validation of in-memory facts and Soufflé's TSV files.

A ``.facts`` / ``.csv`` file holds one tuple per line, columns separated by a tab, no
quoting (Soufflé's default).  Hence a symbol written to a file cannot contain a tab, a
newline or a carriage return: writing one is a :class:`MalformedFacts` error (the
embedded engine takes such symbols in memory).  Numbers are 32-bit signed (Soufflé's
default build); reading accepts an optional sign, decimal digits, ``0x`` hex and ``0b``
binary.  Symbols cannot contain NUL or lone surrogates (neither engine can).  A missing ``<rel>.facts`` for an
``.input`` relation is an error, as in Soufflé (an empty file is an empty relation).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from bufferlog.core import UserError

from .program import Program

Value = str | int
Tuple = tuple[Value, ...]
Facts = dict[str, list[Tuple]]

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
_BAD_IN_FILE = ("\t", "\n", "\r")


class MalformedFacts(UserError):
    """Facts that do not fit the declared relation (arity, type, range, encoding)."""


class Validated(list):
    """Rows :func:`normalize` already checked and deduplicated for one program: passed
    through as they are (a session validates its base facts once for all its runs), with
    room for the embedded engine to keep their column values."""

    __slots__ = ("domains",)

    def __init__(self, rows: Iterable[Tuple] = ()):
        super().__init__(rows)
        self.domains: list | None = None  # the embedded engine's column values


def validated(prog: Program, facts: Mapping[str, Iterable[Tuple]] | None) -> dict[str, Validated]:
    """:func:`normalize` once, for facts given to several runs of ``prog``."""
    return {rel: Validated(rows) for rel, rows in normalize(prog, facts).items()}


def normalize(prog: Program, facts: Mapping[str, Iterable[Tuple]] | None) -> Facts:
    """Validate in-memory facts against the ``.input`` declarations of ``prog``; drop
    duplicate tuples (first occurrence kept)."""
    out: Facts = {rel: [] for rel in prog.inputs}
    for rel, rows in (facts or {}).items():
        if rel not in prog.decls:
            raise MalformedFacts(f"facts given for undeclared relation '{rel}'")
        if rel not in out:
            raise MalformedFacts(f"facts given for relation '{rel}', which is not an .input")
        if type(rows) is Validated:
            out[rel] = rows
            continue
        rows = list(map(tuple, rows))
        if not _well_formed(rows, prog.column_types(rel)):
            _reject(rel, rows, prog.column_types(rel))
        out[rel] = list(dict.fromkeys(rows))
    return out


def _well_formed(rows: list[Tuple], types: list[str]) -> bool:
    """All rows fit the column types (checked a column at a time, at C speed)."""
    if not rows:
        return True
    if set(map(len, rows)) != {len(types)}:
        return False
    for ty, col in zip(types, zip(*rows, strict=True), strict=True):
        if ty == "number":
            if set(map(type, col)) != {int} or min(col) < INT_MIN or max(col) > INT_MAX:
                return False
        elif set(map(type, col)) != {str}:
            return False
        else:
            text = "".join(col)
            if "\0" in text or not text.isascii() and not _utf8(text):
                return False
    return True


def _reject(rel: str, rows: list[Tuple], types: list[str]) -> None:
    """Raise the error of the first malformed tuple."""
    for k, row in enumerate(rows, 1):
        where = f"relation '{rel}', tuple {k}"
        if len(row) != len(types):
            raise MalformedFacts(f"{where}: expected {len(types)} column(s), got {len(row)}")
        for j, (v, ty) in enumerate(zip(row, types, strict=True), 1):
            if ty == "number":
                if not isinstance(v, int) or isinstance(v, bool):
                    raise MalformedFacts(f"{where}, column {j}: expected a number, got {v!r}")
                if not INT_MIN <= v <= INT_MAX:
                    raise MalformedFacts(f"{where}, column {j}: {v} is outside 32-bit range")
            elif not isinstance(v, str):
                raise MalformedFacts(f"{where}, column {j}: expected a symbol (str), got {v!r}")
            elif "\0" in v:
                raise MalformedFacts(f"{where}, column {j}: symbols cannot contain NUL")
            elif not v.isascii() and not _utf8(v):
                raise MalformedFacts(f"{where}, column {j}: symbols cannot contain lone "
                                     f"surrogates (not writable as UTF-8): {v!r}")


def _utf8(v: str) -> bool:
    """``v`` can be written as UTF-8 (no lone surrogate), as both engines need."""
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_number(text: str) -> int:
    v = int(text, 0) if text.lstrip("+-")[:2].lower() in ("0x", "0b") else int(text, 10)
    if not INT_MIN <= v <= INT_MAX:
        raise ValueError("outside 32-bit range")
    return v


def read_table(path: Path, rel: str, types: list[str]) -> list[Tuple]:
    """Read one TSV file of relation ``rel`` with column root types ``types``."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise MalformedFacts(f"relation '{rel}': not UTF-8 ({e.reason} at byte {e.start})",
                             path) from None
    rows: list[Tuple] = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        line = line.removesuffix("\r")
        cells = line.split("\t") if types else ([] if line == "" else [line])
        if len(cells) != len(types):
            raise MalformedFacts(
                f"relation '{rel}' expects {len(types)} tab-separated column(s), got {len(cells)}",
                f"{path}:{n}:1")
        row: list[Value] = []
        col = 1
        for j, (cell, ty) in enumerate(zip(cells, types, strict=True), 1):
            if ty == "number":
                try:
                    row.append(parse_number(cell.strip()))
                except ValueError:
                    raise MalformedFacts(
                        f"relation '{rel}', column {j}: expected a number, got {cell!r}",
                        f"{path}:{n}:{col}") from None
            elif "\0" in cell:
                raise MalformedFacts(f"relation '{rel}', column {j}: symbols cannot contain NUL",
                                     f"{path}:{n}:{col}")
            else:
                row.append(cell)
            col += len(cell) + 1
        rows.append(tuple(row))
    return rows


def read_facts_dir(prog: Program, facts_dir: str | Path, suffix: str = ".facts") -> Facts:
    """Read ``<rel>.facts`` for every ``.input`` relation of ``prog``; a missing file is
    an error at the ``.input`` directive (as Soufflé: "Cannot open fact file")."""
    d = Path(facts_dir)
    if not d.is_dir():
        raise UserError(f"facts directory not found: {d}")
    out: Facts = {}
    where = {x.rel: x.loc for x in prog.directives if x.kind == "input"}
    for rel in prog.inputs:
        if rel not in prog.decls:
            continue
        f = d / f"{rel}{suffix}"
        if not f.is_file():
            raise MalformedFacts(f"cannot open fact file {f} for .input relation '{rel}' "
                                 "(an empty file gives an empty relation)", where.get(rel))
        out[rel] = read_table(f, rel, prog.column_types(rel))
    return out


def write_table(path: Path, rel: str, rows: Iterable[Tuple]) -> None:
    """Write rows as TSV; a symbol with a tab/newline/CR is a :class:`MalformedFacts`."""
    lines: list[str] = []
    for k, row in enumerate(rows, 1):
        for v in row:
            if isinstance(v, str) and any(c in v for c in _BAD_IN_FILE):
                raise MalformedFacts(
                    f"relation '{rel}', tuple {k}: symbol {v!r} contains a tab or newline, "
                    "which Soufflé's TSV facts cannot represent")
        lines.append("\t".join(str(v) for v in row) + "\n")
    path.write_text("".join(lines), encoding="utf-8")


def write_facts_dir(facts: Mapping[str, Iterable[Tuple]], out_dir: Path, suffix: str = ".facts") -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for rel, rows in facts.items():
        write_table(out_dir / f"{rel}{suffix}", rel, rows)
