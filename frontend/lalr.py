"""Run the cached grammar tables (``frontend/parse_tables.py``): contextual lexer, LALR(1)
driver and tree shaping in one loop, with no recursion and no lark import.

The result equals what lark's own LALR parser builds from the same grammar with
``lexer="contextual", propagate_positions=True, maybe_placeholders=True`` (tree shape,
token types and positions, the first error and its expected set); tests/test_parser_cache.py
compares the two on the corpus and on every snippet of the test-suite. Differences are in
cost only:

* a state's lexer tries only the terminals that can start with the next character, in
  lark's order (priority, then longest possible match, then name), instead of one big
  alternation per state; keywords found by a regex (``BARE_ID`` matching ``ins``) are
  mapped by a dictionary, as lark's "unless" callbacks do;
* string terminals are matched with ``str.startswith``; regexes are compiled on first use;
* positions are one token reference per tree (``Tree.first``), not a ``Meta`` object.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable
from functools import lru_cache

from bufferlog.core.regex import compile as compile_regex

from . import parse_tables
from .syntax_tree import Token, Tree

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

_PASS, _WRAP, _GENERAL = 0, 1, 2  # kinds of rule entries in Grammar._rules
_IGNORE, _NEWLINE, _FAIL = 1, 2, 4  # Grammar._flags bits of a terminal


class ParseFailure(Exception):
    """The input is not in the grammar. ``token`` is the offending token (type ``$END``
    at the end of input), or None when no terminal matches at ``line``:``column``
    (``char`` is the character there). ``expected``: terminal names acceptable there."""

    def __init__(self, token: Token | None, expected: set[str], line: int, column: int,
                 char: str = ""):
        super().__init__(f"{line}:{column}: unexpected {token!r}" if token is not None
                         else f"{line}:{column}: unexpected character {char!r}")
        self.token = token
        self.expected = expected
        self.line = line
        self.column = column
        self.char = char


class FailToken(Exception):
    """A token of a ``FAIL_TERMINALS`` type (an unknown op name) was lexed."""

    def __init__(self, token: Token):
        super().__init__(str(token))
        self.token = token


class _States(dict):
    """Parser state -> {symbol id: action}, decoded from marshal bytes on first use."""

    def __init__(self, blobs: list[bytes]):
        super().__init__()
        self.blobs = blobs

    def __missing__(self, state: int) -> dict[int, int]:
        acts = self[state] = marshal.loads(self.blobs[state])
        return acts


class _Group:
    """The lexer of every parser state accepting one set of terminals: per next
    character, the candidate terminals in match order (computed on first sight)."""

    __slots__ = ("order", "unless", "disp", "grammar")

    def __init__(self, grammar: Grammar, blob: bytes):
        self.order, self.unless = marshal.loads(blob)
        self.grammar = grammar
        self.disp: dict[str, tuple[tuple[int, str | None, Any], ...]] = {}

    def candidates(self, c: str) -> tuple[tuple[int, str | None, Any], ...]:
        g = self.grammar
        out = []
        ascii_ = c < "\x80"
        for tid in self.order:
            kind, text, first, non_ascii, _nl = g.terminals[tid]
            if kind == "str":
                if text[0] == c:
                    out.append((tid, text, None))
            elif (c in first) if ascii_ else non_ascii:
                out.append((tid, None, g.regex(tid)))
        res = self.disp[c] = tuple(out)
        return res


class Grammar:
    """Loaded tables plus lazily built lexer groups and compiled terminal regexes."""

    def __init__(self, tables: dict[str, Any]):
        self.symbols: list[str] = tables["symbols"]
        self.states = _States(tables["states"])
        self.start: int = tables["start"]
        self.end: int = tables["end"]
        self.rules: list[tuple[Any, ...]] = tables["rules"]
        self.group_blobs: list[bytes] = tables["groups"]
        self.state_group: list[int] = tables["state_group"]
        self.terminals: dict[int, tuple[Any, ...]] = tables["terminals"]
        self.ignore = frozenset(tables["ignore"])
        self.fail = frozenset(tables["fail"])
        self.newline = frozenset(t for t, d in self.terminals.items() if d[4])
        self._flags = [(_IGNORE if t in self.ignore else 0) | (_NEWLINE if t in self.newline
                       else 0) | (_FAIL if t in self.fail else 0) for t in range(len(self.symbols))]
        self.end_id = self.symbols.index("$END")
        self._groups: list[_Group | None] = [None] * len(self.group_blobs)
        self._regex: dict[int, Any] = {}
        self.top_list = self.symbols.index(tables["top_list"])
        # the driver's view of the rules: one-child rules get a short entry it handles
        # inline (_PASS: a ?rule handing its child up; _WRAP: a tree around the child)
        self._rules: list[tuple[Any, ...]] = []
        for k, (size, origin, name, expand1, plan, _trailing) in enumerate(self.rules):
            one = size == 1 and plan is None and origin != self.top_list
            kind = (_PASS if expand1 else _WRAP) if one else _GENERAL
            self._rules.append((kind, origin, name) if one else (kind, origin, k))
        # characters only the ignored blank terminal can start with: skipped in one match
        self._space: dict[str, Any] = {}
        for tid in self.ignore:
            kind, text, first, _na, _nl = self.terminals[tid]
            if kind != "re" or compile_regex(text).fullmatch(" ") is None:
                continue
            others = set().union(*(set(d[2]) for t, d in self.terminals.items() if t != tid))
            self._space = {ch: self.regex(tid) for ch in first if ch not in others}

    def regex(self, tid: int) -> Any:
        m = self._regex.get(tid)
        if m is None:
            m = self._regex[tid] = compile_regex(self.terminals[tid][1]).match
        return m

    def group(self, gid: int) -> _Group:
        g = self._groups[gid]
        if g is None:
            g = self._groups[gid] = _Group(self, self.group_blobs[gid])
        return g

    def pattern(self, name: str) -> tuple[str, str] | None:
        """("str" | "re", text) of terminal ``name`` (for error messages)."""
        if name not in self.symbols:
            return None
        t = self.terminals.get(self.symbols.index(name))
        return None if t is None else (t[0], t[1])

    # -- the driver ---------------------------------------------------------------------
    def parse(self, text: str, on_item: Callable[[Tree], None] | None = None) -> Tree:
        """Parse ``text`` (rule ``start``) into a Tree; raise ParseFailure / FailToken.

        ``on_item``: receives each top-level item (``operation``, ``alias_def``, ...) as
        soon as it is complete, in order, and the ``start`` tree comes back without them
        (so a caller can build and drop them one by one: the whole tree never exists)."""
        states, rules, symbols = self.states, self._rules, self.symbols
        state_group, groups, flags, space = self.state_group, self._groups, self._flags, self._space
        new_str = str.__new__
        sstack = [self.start]
        vstack: list[Any] = []
        pos, n, line, lstart = 0, len(text), 1, 0
        while pos < n:
            c = text[pos]
            if c in space:  # whitespace that only the ignored blank terminal can start
                end = space[c](text, pos).end()
                k = text.count("\n", pos, end)
                if k:
                    line += k
                    lstart = text.rfind("\n", pos, end) + 1
                pos = end
                continue
            gid = state_group[sstack[-1]]
            g = groups[gid] or self.group(gid)
            cands = g.disp.get(c)
            if cands is None:
                cands = g.candidates(c)
            for tid, lit, match in cands:  # noqa: B007  (tid is the match, used below)
                if lit is not None:
                    if text.startswith(lit, pos):
                        end = pos + len(lit)
                        value = lit
                        break
                else:
                    m = match(text, pos)
                    if m is not None:
                        end = m.end()
                        value = m.group()
                        break
            else:
                raise self._lex_failure(text, pos, line, pos - lstart + 1, g, sstack[-1])
            f = flags[tid]
            if f & _IGNORE:
                if f & _NEWLINE:
                    k = text.count("\n", pos, end)
                    if k:
                        line += k
                        lstart = text.rfind("\n", pos, end) + 1
                pos = end
                continue
            u = g.unless.get(tid)
            if u is not None:
                tid = u.get(value, tid)
                f = flags[tid]
            tok = new_str(Token, value)  # Token(...) without the call: the hottest line
            tok.type = symbols[tid]
            tok.start_pos = pos
            tok.line = line
            tok.column = pos - lstart + 1
            if f:
                if f & _NEWLINE:
                    k = text.count("\n", pos, end)
                    if k:
                        line += k
                        lstart = text.rfind("\n", pos, end) + 1
                if f & _FAIL:
                    raise FailToken(tok)
            pos = end
            # feed the token: reduce while the state says so, then shift
            while True:
                act = states[sstack[-1]].get(tid)
                if act is None:
                    raise self._token_failure(tok, sstack[-1])
                if act >= 0:
                    sstack.append(act)
                    vstack.append(tok)
                    break
                r = rules[-1 - act]
                if r[0] == _PASS:  # ?rule with one child: the child itself, new state
                    sstack[-1] = states[sstack[-2]][r[1]]
                elif r[0] == _WRAP:  # rule with one kept child: a tree around it
                    c1 = vstack[-1]
                    first = c1 if type(c1) is Token else None if c1 is None else \
                        c1.cfirst if c1.first is not None else None
                    vstack[-1] = Tree(r[2], [c1], first, first)
                    sstack[-1] = states[sstack[-2]][r[1]]
                else:
                    self._reduce(self.rules[r[2]], sstack, vstack, on_item)
        # end of input
        end_tok = Token("$END", "", pos, line, pos - lstart + 1)
        while True:
            act = states[sstack[-1]].get(self.end_id)
            if act is None or act >= 0:
                raise self._token_failure(end_tok, sstack[-1])
            self._reduce(self.rules[-1 - act], sstack, vstack, on_item)
            if sstack[-1] == self.end:
                return vstack[-1]

    def _reduce(self, rule: tuple[Any, ...], sstack: list[int], vstack: list[Any],
                on_item: Callable[[Tree], None] | None) -> None:
        size, origin, name, expand1, plan, trailing = rule
        if size:
            children = vstack[-size:]
            del vstack[-size:]
            del sstack[-size:]
        else:
            children = []
        if plan is None:
            kept = children
        else:
            kept = []
            for i, inline, nones in plan:
                if nones:
                    kept += [None] * nones
                if not inline:
                    kept.append(children[i])
                elif kept:
                    kept += children[i].children
                else:  # take over the inlined list: left-recursive lists grow in O(1)
                    kept = children[i].children
            if trailing:
                kept += [None] * trailing
        if origin == self.top_list and on_item is not None:
            on_item(kept.pop())  # the item just completed
        start = None
        for c in children:
            if c is None:
                continue
            if type(c) is Token:
                start = c
                break
            if c.first is not None:
                start = c.cfirst
                break
        if expand1 and len(kept) == 1:
            res = kept[0]
            if type(res) is Tree and start is not None:
                if res.first is None:
                    res.first = start
                res.cfirst = start
        else:
            res = Tree(name, kept, start, start)
        sstack.append(self.states[sstack[-1]][origin])
        vstack.append(res)

    # -- errors -------------------------------------------------------------------------
    def _expected(self, state: int) -> set[str]:
        return {self.symbols[s] for s in self.states[state] if self.symbols[s].isupper()}

    def _token_failure(self, tok: Token, state: int) -> ParseFailure:
        return ParseFailure(tok, self._expected(state), tok.line, tok.column)

    def _lex_failure(self, text: str, pos: int, line: int, col: int, g: _Group,
                     state: int) -> Exception:
        """No terminal of the state matches. Like lark's contextual lexer, try every
        terminal: a match is reported as an unexpected token, else as a bad character."""
        allowed = {self.symbols[t] for t in g.order} - {self.symbols[t] for t in self.ignore}
        root = self.group(len(self.group_blobs) - 1)
        found = _first_match(root, text, pos)
        if found is None or found[0] in self.ignore:
            return ParseFailure(None, allowed, line, col, text[pos])
        tid, end = found
        value = text[pos:end]
        u = root.unless.get(tid)
        if u is not None:
            tid = u.get(value, tid)
        tok = Token(self.symbols[tid], value, pos, line, col)
        if tid in self.fail:
            return FailToken(tok)
        return ParseFailure(tok, allowed, line, col)


def _first_match(g: _Group, text: str, pos: int) -> tuple[int, int] | None:
    """(terminal id, end) of the first terminal of ``g`` matching at ``pos``."""
    cands = g.disp.get(text[pos])
    for tid, lit, match in g.candidates(text[pos]) if cands is None else cands:
        if lit is not None:
            if text.startswith(lit, pos):
                return tid, pos + len(lit)
        else:
            m = match(text, pos)
            if m is not None:
                return tid, m.end()
    return None


@lru_cache(maxsize=1)
def grammar() -> Grammar:
    """The grammar of ``frontend/grammar/*.lark``, from the table cache."""
    return Grammar(parse_tables.load())
