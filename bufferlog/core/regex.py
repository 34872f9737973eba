"""Regular expressions compiled once per installation instead of once per process.

``re.compile`` parses a pattern and generates its matcher code in Python; bufferlog's ~70
patterns (the lexer's terminals, the literal and layout readers) cost ~12 ms of every
process that way. ``compile`` here keeps the generated code in a small marshal file in the
cache directory (``$BUFFERLOG_CACHE_DIR``, else ``~/.cache/bufferlog``), named by the
Python version and the regex engine's ``MAGIC``, and builds the pattern object from it
directly (``_sre.compile``, what ``re.compile`` ends with): the same object ``re.compile``
returns (patterns compare equal by their code), for a few microseconds.

Any failure (no cache, an unwritable or corrupt one, a Python whose ``re`` internals
differ) falls back to ``re.compile``: never a different pattern, at worst the old cost."""

from __future__ import annotations

import atexit
import marshal
import os
import re
import sys

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

try:
    import _sre
    from re import _compiler, _parser

    _KEY = f"py{sys.version_info[0]}{sys.version_info[1]}-sre{_sre.MAGIC}-{_sre.CODESIZE}"
except (ImportError, AttributeError):  # not CPython's re: no cache
    _KEY = None

#: (pattern, flags) -> the arguments of ``_sre.compile`` after the pattern; None: not read yet
_codes: dict[tuple[str, int], tuple] | None = None
_new: dict[tuple[str, int], tuple] = {}


def compile(pattern: str, flags: int = 0) -> re.Pattern:
    """``re.compile(pattern, flags)``, from the cache when it holds the pattern."""
    if _KEY is None:
        return re.compile(pattern, flags)
    flags = int(flags)  # a RegexFlag does not marshal
    codes = _codes if _codes is not None else _load()
    args = codes.get((pattern, flags))
    if args is not None:
        try:
            return _sre.compile(pattern, *args)
        except Exception:  # a cache this Python cannot use: compile normally
            pass
    rx = re.compile(pattern, flags)
    try:
        args = _generate(pattern, flags)
        if _sre.compile(pattern, *args) == rx:  # only code re itself would make
            if not _new:
                atexit.register(_save)
            _new[(pattern, flags)] = args
    except Exception:
        pass
    return rx


def _generate(pattern: str, flags: int) -> tuple:
    """What ``re._compiler.compile`` passes to ``_sre.compile`` after the pattern."""
    p = _parser.parse(pattern, flags)
    code = [int(c) for c in _compiler._code(p, flags)]  # opcodes are int subclasses
    groupindex = p.state.groupdict
    indexgroup: list[Any] = [None] * p.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    return (int(flags | p.state.flags), code, p.state.groups - 1, dict(groupindex),
            tuple(indexgroup))


def _path() -> str:
    from bufferlog.core.resources import cache_dir

    return os.path.join(cache_dir(), "regex", f"{_KEY}.marshal")


def _load() -> dict:
    global _codes
    try:
        with open(_path(), "rb") as f:
            data = marshal.loads(f.read())  # marshal.load(f) reads in small pieces: 50x slower
        _codes = data if isinstance(data, dict) else {}
    except Exception:  # none yet, unreadable or corrupt: start empty
        _codes = {}
    return _codes


def _save() -> None:
    """Add this process's new patterns to the cache file (atomically replaced)."""
    if not _new:
        return
    try:
        merged = {**_load(), **_new}
        path = _path()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(marshal.dumps(merged))
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        _new.clear()
    except Exception:  # a read-only home: no cache, same patterns
        pass
