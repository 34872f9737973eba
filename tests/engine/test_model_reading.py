"""The embedded engine reads clingo's model through its C API into one reused buffer
(engine/embedded.py ``_shown_atoms``) and parses all-number atoms in bulk (``_tuples``).
Atoms longer than the buffer, symbols with escapes, negative numbers and relations whose
names extend one another must come back exactly."""

from __future__ import annotations

from bufferlog.engine.program import Program
from bufferlog.engine.run import run

PROG = """
.decl e(x: symbol, n: number)
.input e
.decl p(x: symbol, n: number)
.output p
.decl p_num(a: number, b: number, c: number)
.output p_num
.decl p_n(a: number)
.output p_n
.decl flag()
.output flag
p(x, n) :- e(x, n).
p_num(n, -n, n * 3) :- e(_, n).
p_n(n - 1) :- e(_, n).
flag() :- e(_, _).
"""


def test_atoms_come_back_exactly():
    long = "x" * 10_000 + '"\\\n\t'  # past the 4096-byte buffer, with escapes
    rows = [(long, 1), ("short", -7), ("", 0), ("é\u2603", 2_147_483_647)]
    rel = run(Program.from_text(PROG), {"e": rows}, engine="embedded",
              relations="all").relations
    assert rel["p"] == set(rows)
    assert rel["p_num"] == {(n, -n, n * 3 if abs(n * 3) < 2**31 else rel_wrap(n * 3))
                            for _, n in rows}
    assert rel["p_n"] == {(n - 1,) for _, n in rows}
    assert rel["flag"] == {()}


def rel_wrap(v: int) -> int:
    """32-bit wrap-around, as both engines compute."""
    return (v + 2**31) % 2**32 - 2**31


def test_empty_relations():
    rel = run(Program.from_text(PROG), {"e": []}, engine="embedded", relations="all").relations
    assert rel["p"] == rel["p_num"] == rel["p_n"] == rel["flag"] == set()
