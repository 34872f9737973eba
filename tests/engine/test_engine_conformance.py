"""Conformance: every program in tests/conformance/ on every available engine.

Each ``<name>/`` holds ``prog.dl``, ``facts/<rel>.facts`` and ``expected/<rel>.csv``,
the latter written by hand from the programs' meaning (see the comments in each
``prog.dl``), one file per ``.output`` relation (an empty file for an empty relation).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bufferlog.engine import Program, run
from bufferlog.engine.facts_io import MalformedFacts, read_table
from engine_helpers import ENGINE_MODES, need
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent / "conformance"
PROGRAMS = sorted(p.name for p in ROOT.iterdir() if (p / "prog.dl").is_file())


def expected(prog: Program, case: Path) -> dict[str, set]:
    out = {}
    for rel in prog.outputs:
        f = case / "expected" / f"{rel}.csv"
        assert f.is_file(), f"missing expected file {f}"
        out[rel] = set(read_table(f, rel, prog.column_types(rel)))
    return out


def test_suite_is_complete():
    assert {"tc", "same_generation", "negation", "arith", "aggregates", "symbols", "empty",
            "include"} <= set(PROGRAMS)


@pytest.mark.parametrize("mode", ENGINE_MODES)
@pytest.mark.parametrize("name", PROGRAMS)
def test_conformance(name, mode):
    engine, compiled = mode
    need(engine)
    case = ROOT / name
    prog = Program.load(case / "prog.dl")
    res = run(prog, case / "facts", engine=engine, compiled=compiled)
    assert res.engine == engine
    assert res.relations == expected(prog, case)


def test_symbols_round_trip_exactly_in_memory():
    """Tabs, newlines, quotes, backslashes and unicode survive the embedded engine."""
    prog = Program.from_text(
        '.decl i(s: symbol)\n.input i\n.decl o(s: symbol, t: symbol)\n.output o\n'
        'o(s, "tab\\there") :- i(s).\n')
    vals = ["a\tb", "line\nbreak", 'q"uote', "back\\slash", "ünï✓", "", "'"]
    res = run(prog, {"i": [(v,) for v in vals]}, engine="embedded")
    assert res.relations["o"] == {(v, "tab\there") for v in vals}


def test_souffle_and_embedded_agree_on_all_relations():
    need("souffle")
    for name in PROGRAMS:
        case = ROOT / name
        a = run(case / "prog.dl", case / "facts", engine="embedded", relations="all")
        # Soufflé's CSV output cannot carry a tab: compare the other relations
        rels = [r for r, rows in a.relations.items()
                if not any("\t" in v for row in rows for v in row if isinstance(v, str))]
        b = run(case / "prog.dl", case / "facts", engine="souffle", relations=rels)
        assert {r: a.relations[r] for r in rels} == b.relations, name


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(st.characters(blacklist_characters="\x00",
                                                 blacklist_categories=("Cs",)), max_size=8),
                          st.integers(-(2**31), 2**31 - 1)), max_size=8))
def test_any_symbol_and_number_round_trip(rows):
    prog = Program.from_text(COPY_PROGRAM)
    assert run(prog, {"i": rows}, engine="embedded").relations["o"] == set(rows)


COPY_PROGRAM = (".decl i(s: symbol, n: number)\n.input i\n"
                ".decl o(s: symbol, n: number)\n.output o\no(s, n) :- i(s, n).\n")


def test_lone_surrogate_symbol_is_a_clear_error():
    """Text that cannot be written as UTF-8 (a lone surrogate, which Python strings can
    hold) is refused when the facts are checked, like NUL, not deep in an engine."""
    with pytest.raises(MalformedFacts, match="lone surrogates"):
        run(Program.from_text(COPY_PROGRAM), {"i": [("a\ud800", 0)]}, engine="embedded")
