"""The cached, table-driven parser (frontend/parse_tables.py + frontend/lalr.py) against a
freshly built lark parser of the same grammar: same trees (rule names, children, token
types, texts and positions, placeholders), same first error (token or character, line,
column, expected terminals), on the corpus, the repository's .mlir files, generated
programs, the verifier's snippets and thousands of truncated / token-deleted inputs.
Plus the cache itself: reused across processes, rebuilt when corrupt, optional when no
directory is writable."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from bufferlog.frontend import lalr, parse_tables
from bufferlog.frontend.syntax_tree import Token, Tree
from conftest import CORPUS_FILES
from gen_programs import generate
from test_parse_errors import CASES as ERROR_CASES
from test_verify import INVALID, VALID

REPO = Path(__file__).resolve().parent.parent


class _Unknown(Exception):
    pass


def _raise_unknown(tok: object) -> None:
    raise _Unknown(tok)


@pytest.fixture(scope="module")
def fresh_lark():
    from lark import Lark

    return Lark(parse_tables.grammar_text(), parser="lalr", lexer="contextual",
                start="start", propagate_positions=True, maybe_placeholders=True,
                lexer_callbacks={"UNKNOWN_OP": _raise_unknown})


def _lark_outcome(lk, text: str) -> tuple:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    try:
        return ("ok", lk.parse(text))
    except _Unknown as e:
        t = e.args[0]
        return ("unknown-op", (str(t), t.line, t.column))
    except UnexpectedToken as e:
        t = e.token
        where = (None, None) if t.type == "$END" else (t.line, t.column)
        return ("token", (t.type, str(t), *where, frozenset(e.expected)))
    except UnexpectedCharacters as e:
        return ("char", (e.char, e.line, e.column, frozenset(e.allowed)))


def _our_outcome(g: lalr.Grammar, text: str) -> tuple:
    try:
        return ("ok", g.parse(text))
    except lalr.FailToken as e:
        t = e.token
        return ("unknown-op", (str(t), t.line, t.column))
    except lalr.ParseFailure as e:
        t = e.token
        if t is None:
            return ("char", (e.char, e.line, e.column, frozenset(e.expected)))
        where = (None, None) if t.type == "$END" else (t.line, t.column)
        return ("token", (t.type, str(t), *where, frozenset(e.expected)))


def _tree_difference(theirs, ours) -> str | None:
    """First difference between a lark tree and ours (iterative: deep inputs)."""
    from lark import Token as LToken

    stack = [(theirs, ours)]
    while stack:
        x, y = stack.pop()
        if x is None or y is None:
            if x is not y:
                return f"placeholder: {x!r} vs {y!r}"
            continue
        if isinstance(x, LToken):
            if not isinstance(y, Token) or (x.type, str(x), x.line, x.column, x.start_pos) != \
                    (y.type, str(y), y.line, y.column, y.start_pos):
                return f"token {x.type} {str(x)!r} {x.line}:{x.column} vs {y!r}"
            continue
        if not isinstance(y, Tree) or x.data != y.data or len(x.children) != len(y.children):
            return f"tree {x.data} vs {getattr(y, 'data', y)!r}"
        m = x.meta
        if m.empty != (y.first is None):
            return f"{x.data}: meta empty {m.empty}"
        if not m.empty and ((m.line, m.column, m.start_pos, m.container_line, m.container_column)
                            != (y.first.line, y.first.column, y.first.start_pos,
                                y.cfirst.line, y.cfirst.column)):
            return f"{x.data}: position {m.line}:{m.column} vs {y.first.line}:{y.first.column}"
        stack.extend(zip(x.children, y.children, strict=True))
    return None


def _inputs() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    files = [*CORPUS_FILES, *sorted(REPO.glob("examples/*.mlir")),
             *sorted(REPO.glob("tests/*/*.mlir"))]
    out += [(str(f), f.read_text()) for f in files]
    out += [(f"generated seed {s}", generate(s, 12, forall=s % 2 == 1, cf=s % 3 == 0))
            for s in range(12)]
    out += [(f"verify {c[0]}", c[1]) for c in (*INVALID, *VALID)]
    out += [(f"error {c[0]}", c[1]) for c in ERROR_CASES]
    return out


def _mutants(inputs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Truncations and single-token deletions: every kind of error, deterministically."""
    rng = random.Random(11)
    out = []
    small = [(n, t) for n, t in inputs if len(t) < 1500]
    for name, text in rng.sample(small, min(150, len(small))):
        for _ in range(4):
            cut = rng.randrange(len(text)) if text else 0
            out.append((f"{name} cut at {cut}", text[:cut]))
            spaces = [i for i, ch in enumerate(text) if ch in " (,:"]
            if spaces:
                i = rng.choice(spaces)
                j = text.find(" ", i + 1)
                out.append((f"{name} minus {i}..{j}", text[:i] + text[j if j > 0 else i + 1:]))
    return out


def _our_difference(a: Tree, b: Tree) -> str | None:
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, Token) or x is None:
            if x != y or type(x) is not type(y) or (
                    x is not None and (x.type, x.line, x.column) != (y.type, y.line, y.column)):
                return f"{x!r} vs {y!r}"
            continue
        if not isinstance(y, Tree) or x.data != y.data or len(x.children) != len(y.children) \
                or x.first is not y.first and (x.first.line, x.first.column) != \
                (y.first.line, y.first.column):
            return f"{x.data} vs {y!r}"
        stack.extend(zip(x.children, y.children, strict=True))
    return None


def test_tables_built_here_parse_like_the_cached_ones() -> None:
    """lark numbers its states differently in every process; any build must parse alike."""
    fresh = lalr.Grammar(parse_tables.build(parse_tables.grammar_text()))
    cached = lalr.grammar()
    for name, text in _inputs():
        body = text
        a, b = _our_outcome(fresh, body), _our_outcome(cached, body)
        assert a[0] == b[0], name
        assert (_our_difference(a[1], b[1]) if a[0] == "ok" else a[1] != b[1]) in (None, False), name


def test_same_trees_and_errors_as_fresh_lark(fresh_lark) -> None:
    g = lalr.grammar()
    inputs = _inputs()
    cases = inputs + _mutants(inputs)
    kinds: dict[str, int] = {}
    for name, text in cases:
        body = text
        theirs, ours = _lark_outcome(fresh_lark, body), _our_outcome(g, body)
        assert theirs[0] == ours[0], (name, theirs, ours)
        kinds[theirs[0]] = kinds.get(theirs[0], 0) + 1
        if theirs[0] == "ok":
            diff = _tree_difference(theirs[1], ours[1])
            assert diff is None, (name, diff)
        else:
            assert theirs[1] == ours[1], name
    # the comparison covered trees and every error kind
    assert kinds["ok"] > 200 and kinds["token"] > 100 and kinds["char"] > 0, kinds
    assert kinds.get("unknown-op", 0) > 0, kinds


def _run_parse(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = ("from bufferlog.frontend.parser import parse; "
            "m = parse('func.func @f() {\\n  return\\n}\\n'); print(len(list(m.walk())))")
    return subprocess.run([sys.executable, "-c", code], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120)


def test_cache_written_reused_and_repaired(tmp_path: Path) -> None:
    env = {"BUFFERLOG_CACHE_DIR": str(tmp_path)}
    r = _run_parse(env)
    assert r.returncode == 0 and r.stdout.strip() == "3", r.stderr
    (cached,) = (tmp_path / "parser").glob("tables-*.marshal")
    stamp = cached.stat().st_mtime_ns
    assert _run_parse(env).returncode == 0
    assert cached.stat().st_mtime_ns == stamp  # reused, not rebuilt
    cached.write_bytes(b"\x00garbage")
    r = _run_parse(env)
    assert r.returncode == 0 and r.stdout.strip() == "3", r.stderr
    assert parse_tables.read(cached)["format"] == parse_tables.FORMAT  # repaired


def test_unwritable_cache_dir_still_parses(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    r = _run_parse({"BUFFERLOG_CACHE_DIR": str(blocker / "sub")})
    assert r.returncode == 0 and r.stdout.strip() == "3", r.stderr
