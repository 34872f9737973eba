"""The MLIR grammar compiled to plain tables, built once and cached on disk.

``grammar_text()`` is ``grammar/core.lark`` plus every family file (``custom_op`` is
generated from the file names). lark analyses it (LALR(1), contextual lexer) only when no
cached tables match: ``build()`` turns lark's parse table, terminal order, keyword
("unless") maps and tree-shaping rules into lists, dicts, strings and ints, and
``load()`` keeps them in ``$BUFFERLOG_CACHE_DIR`` or ``$XDG_CACHE_HOME/bufferlog``
(``~/.cache/bufferlog``) in one file (:func:`read`) holding its key (the grammar, the
lark version, the table format and the Python version) and named by a CRC of it. A fresh
process maps that file (a few milliseconds) instead of rebuilding or unpickling lark's
objects (0.5 s); if no cache directory is writable the tables are built in memory.
``frontend/lalr.py`` runs them.

Table layout (``FORMAT``):

* ``symbols``: names; ids index this list (terminals, ``$END``, rule names).
* ``states``: per parser state, ``marshal`` bytes of ``{symbol id: action}``; action
  ``>= 0`` shifts (or, for a rule name, goes) to that state, ``< 0`` reduces rule
  ``-1 - action``. Decoded lazily: a file visits a fraction of the 2,000 states, and a
  cached file is mapped, so the others are not even read.
* ``top_list``: the rule name whose reductions complete a top-level item.
* ``rules``: ``(size, origin id, tree name, expand1, plan, trailing Nones)``; ``plan`` is
  ``None`` (children kept as they are) or ``[(index, inline, Nones before)]``, lark's
  child filter (anonymous tokens dropped, ``_rule`` children inlined, placeholders).
* ``groups`` (one per distinct set of terminals a state accepts, plus the root group of
  all terminals, last) with ``state_group``: ``marshal`` bytes of ``(terminal ids in
  lark's match order, {regex terminal: {keyword text: keyword terminal}})``.
* ``terminals``: ``{id: (kind, text, first_chars, non_ascii, newline)}``, ``kind`` "str"
  (literal text) or "re" (a regex); ``first_chars`` the ASCII characters a match can
  start with and ``non_ascii`` whether it can start with any other (used to try only the
  terminals that can match at a character).
"""

from __future__ import annotations

import marshal
import os
import re
import sys
import zlib
from itertools import accumulate
from pathlib import Path

from bufferlog.core.resources import cache_dir

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

GRAMMAR_DIR = Path(__file__).parent / "grammar"
FORMAT = 3
#: terminals whose tokens abort the parse (the parser reports them as unknown ops)
FAIL_TERMINALS = ("UNKNOWN_OP",)


def grammar_text() -> str:
    """core.lark + all family files + the generated ``custom_op`` rule."""
    core = (GRAMMAR_DIR / "core.lark").read_text(encoding="utf-8")
    parts = [core]
    fams = []
    for f in sorted(GRAMMAR_DIR.glob("*.lark")):
        if f.name == "core.lark":
            continue
        parts.append(f"// ---- {f.name}\n" + f.read_text(encoding="utf-8"))
        fams.append(f"{f.stem}_op")
    parts.append("custom_op: " + " | ".join([*fams, "UNKNOWN_OP"]) + "\n")
    return "\n".join(parts)


def _lark_version() -> str:
    """lark's version without importing lark (its import alone costs ~20 ms)."""
    from importlib.util import find_spec

    spec = find_spec("lark")
    if spec is None or spec.origin is None:
        return "no lark"
    m = re.search(r"__version__\s*[:=][^\n]*?[\"']([^\"']+)", Path(spec.origin).read_text())
    return m.group(1) if m else spec.origin


def tables_key(grammar: str) -> str:
    """What the cached tables depend on: the grammar, lark, the format, Python."""
    return "\0".join((grammar, _lark_version(), str(FORMAT), f"{sys.version_info[:2]}"))


def load() -> dict[str, Any]:
    """The tables of the current grammar: from the cache, else built (and cached). The
    file is named by a CRC of the key and holds the key itself, checked on load."""
    grammar = grammar_text()
    key = tables_key(grammar)
    path = cache_dir() / "parser" / f"tables-{zlib.crc32(key.encode()):08x}.marshal"
    try:
        data = read(path)
        if data.get("key") == key:
            return data
    except (OSError, EOFError, ValueError, TypeError):
        pass
    from bufferlog.core.timing import phase

    # a first run (or a new grammar, lark or Python) builds the tables: seconds, once
    sys.stderr.write(f"bufferlog: building the parser tables, once (cached in {path.parent})\n")
    with phase("building the parser tables (once)"):
        data = build(grammar)
    data["key"] = key
    _store(path, data)
    return data


#: the cache file's first bytes (then the header's length, 4 bytes little-endian)
MAGIC = b"BLT3"


def read(path: str | os.PathLike) -> dict[str, Any]:
    """A cache file: ``MAGIC``, the header's length, the header (``marshal``: every table
    but ``states``, plus ``state_ends``), then the states' bytes one after the other. The
    file is mapped, not read: ``states`` is a :class:`StateBlobs` over the mapping, and a
    parse touches the pages of the states it visits only (reading and unmarshalling all
    1.7 MB of them cost ~5 ms of every start-up)."""
    import mmap

    with open(path, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    if mm[:4] != MAGIC:
        raise ValueError("not a tables file")
    size = int.from_bytes(mm[4:8], "little")
    data = marshal.loads(mm[8:8 + size])
    if not isinstance(data, dict):
        raise ValueError("not a tables file")
    data["states"] = StateBlobs(memoryview(mm)[8 + size:], data.pop("state_ends"))
    return data


class StateBlobs:
    """The ``marshal`` bytes of each parser state, as slices of one buffer."""

    __slots__ = ("buf", "ends")

    def __init__(self, buf: memoryview, ends: list[int]):
        self.buf, self.ends = buf, ends

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, state: int) -> memoryview:
        return self.buf[self.ends[state - 1] if state else 0:self.ends[state]]


def _store(path: Path, data: dict[str, Any]) -> None:
    """Write atomically (concurrent processes may build the same tables)."""
    import tempfile

    states = data["states"]  # as build() made them: a list of bytes
    header = marshal.dumps({**{k: v for k, v in data.items() if k != "states"},
                            "state_ends": list(accumulate(map(len, states)))})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tables-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(MAGIC + len(header).to_bytes(4, "little") + header)
                f.write(b"".join(states))
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        pass  # read-only home: tables stay in memory for this process


# -------------------------------------------------------------------------------------
# building (needs lark)

def build(grammar: str) -> dict[str, Any]:
    """Analyse ``grammar`` with lark and flatten what the runtime needs."""
    from lark import Lark
    from lark.lexer import _create_unless
    from lark.parse_tree_builder import maybe_create_child_filter
    from lark.parsers.lalr_analysis import Shift

    lk = Lark(grammar, parser="lalr", lexer="contextual", start="start",
              propagate_positions=True, maybe_placeholders=True)
    table = lk.parser.parser.parser.parse_table
    conf = lk.lexer_conf
    symbols: list[str] = [str(t.name) for t in conf.terminals] + ["$END"]
    sid = {name: i for i, name in enumerate(symbols)}

    def sym(name: str) -> int:
        if name not in sid:
            sid[name] = len(symbols)
            symbols.append(str(name))
        return sid[name]

    rule_ids = {id(r): i for i, r in enumerate(lk.rules)}
    rules = []
    for r in lk.rules:
        opts = r.options
        filt = maybe_create_child_filter(r.expansion, opts.keep_all_tokens, False,
                                         opts.empty_indices)
        plan, trailing = None, 0
        if filt is not None:
            args = filt.args
            if len(args) == 2:  # ChildFilterLALR(to_include, nones_to_add)
                plan, trailing = [tuple(x) for x in args[0]], args[1]
            else:  # ChildFilterLALR_NoPlaceholders([(i, to_expand)])
                plan = [(i, x, 0) for i, x in args[0]]
        name = str(r.alias or opts.template_source or r.origin.name)
        rules.append((len(r.expansion), sym(r.origin.name), name,
                      bool(opts.expand1 and not r.alias), plan, trailing))

    n_states = len(table.states)
    assert sorted(table.states) == list(range(n_states)), "lark states are not 0..n-1"
    states: list[bytes] = []
    for s in range(n_states):
        acts = {}
        for key, (action, arg) in table.states[s].items():
            acts[sym(key)] = arg if action is Shift else -1 - rule_ids[id(arg)]
        states.append(marshal.dumps(acts))

    by_name = {t.name: t for t in conf.terminals}
    ignore = list(conf.ignore)
    group_of: dict[frozenset[str], int] = {}
    groups: list[bytes] = []
    state_group = []

    def group(names: set[str]) -> bytes:
        terms = [by_name[n] for n in names if n in by_name]
        terms.sort(key=lambda x: (-x.priority, -x.pattern.max_width, -len(x.pattern.value),
                                  x.name))
        kept, callbacks = _create_unless(terms, conf.g_regex_flags, re, conf.use_bytes)
        unless = {}
        for rname, cb in callbacks.items():
            unless[sid[rname]] = {str(t.pattern.value): sid[t.name] for t in
                                  reversed(cb.scanner.terminals)}
        return marshal.dumps(([sid[t.name] for t in kept], unless))

    for s in range(n_states):
        key = frozenset(table.states[s])
        if key not in group_of:
            group_of[key] = len(groups)
            groups.append(group(set(key) | set(ignore)))
        state_group.append(group_of[key])
    groups.append(group(set(by_name)))  # the root lexer: every terminal

    terminals = {}
    for t in conf.terminals:
        rx = t.pattern.to_regexp()
        assert not t.pattern.flags, f"terminal {t.name} has regex flags"
        if t.pattern.type == "str":
            first, non_ascii = (t.pattern.value[0], False) if t.pattern.value[0] < "\x80" \
                else ("", True)
            terminals[sid[t.name]] = ("str", str(t.pattern.value), first, non_ascii,
                                      _may_span_lines(rx))
        else:
            first, non_ascii = first_chars(rx)
            terminals[sid[t.name]] = ("re", rx, first, non_ascii, _may_span_lines(rx))
    return {
        "format": FORMAT,
        "symbols": symbols,
        "states": states,
        "start": table.start_states["start"],
        "end": table.end_states["start"],
        "rules": rules,
        "groups": groups,
        "state_group": state_group,
        "terminals": terminals,
        "ignore": [sid[n] for n in ignore],
        "top_list": _top_list(lk.rules),
        "fail": [sid[n] for n in FAIL_TERMINALS if n in sid],
    }


def _top_list(rules: list[Any]) -> str:
    """The nonterminal collecting ``start``'s items (lark's ``__start_star_0``)."""
    (name,) = {str(r.expansion[0].name) for r in rules
               if r.origin.name == "start" and len(r.expansion) == 1}
    return name


def _may_span_lines(rx: str) -> bool:
    """lark's test for terminals whose matches may contain a newline (line counting)."""
    return "\n" in rx or "\\n" in rx or "\\s" in rx or "[^" in rx or ("(?s" in rx and "." in rx)


# -- first characters of a regex ----------------------------------------------------------

_ASCII = "".join(map(chr, range(128)))


def first_chars(regex: str) -> tuple[str, bool]:
    """(ASCII characters a match of ``regex`` can start with, whether it can start with a
    non-ASCII one). Over-approximates: unknown constructs allow everything."""
    import re._constants as C  # noqa: N812
    import re._parser as P  # noqa: N812

    def chars_in(items: Any) -> tuple[set[str], bool]:
        out: set[str] = set()
        non_ascii, negate = False, False
        for op, av in items:
            if op is C.NEGATE:
                negate = True
            elif op is C.LITERAL:
                if av < 128:
                    out.add(chr(av))
                else:
                    non_ascii = True
            elif op is C.RANGE:
                lo, hi = av
                out.update(chr(c) for c in range(lo, min(hi, 127) + 1))
                non_ascii |= hi >= 128
            elif op is C.CATEGORY:
                s = {C.CATEGORY_DIGIT: "0123456789", C.CATEGORY_SPACE: " \t\n\r\f\v",
                     C.CATEGORY_WORD: "".join(c for c in _ASCII if c.isalnum() or c == "_")}
                if av in s:
                    out.update(s[av])
                else:  # negated categories
                    out.update(_ASCII)
                non_ascii = True
            else:
                return set(_ASCII), True
        if negate:
            return set(_ASCII) - out, True
        return out, non_ascii

    def seq(items: Any) -> tuple[set[str], bool, bool]:
        """(first chars, non-ASCII, nullable) of a sequence."""
        acc: set[str] = set()
        na = False
        for op, av in items:
            f, n, nullable = elem(op, av)
            acc |= f
            na |= n
            if not nullable:
                return acc, na, False
        return acc, na, True

    def elem(op: Any, av: Any) -> tuple[set[str], bool, bool]:
        if op is C.LITERAL:
            return ({chr(av)}, False, False) if av < 128 else (set(), True, False)
        if op is C.NOT_LITERAL or op is C.ANY:
            return set(_ASCII), True, False
        if op is C.IN:
            f, n = chars_in(av)
            return f, n, False
        if op is C.SUBPATTERN:
            return seq(av[-1])
        if op is C.ATOMIC_GROUP:
            return seq(av)
        if op is C.BRANCH:
            acc: set[str] = set()
            na = nullable = False
            for alt in av[1]:
                f, n, z = seq(alt)
                acc |= f
                na |= n
                nullable |= z
            return acc, na, nullable
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, _hi, item = av
            f, n, z = seq(item)
            return f, n, z or lo == 0
        if op is C.AT:
            return set(), False, True
        return set(_ASCII), True, True  # lookarounds, group references: anything

    first, non_ascii, _ = seq(P.parse(regex))
    return "".join(sorted(first)), non_ascii
