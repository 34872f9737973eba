"""The output interface (rules/interface.dl): which derived relations the Python side
reads from each rules program, with their arities. ``load(entry, rules_dir)`` loads a
program checked against it (a relation the rules do not declare, or declare with another
arity, is a located error); runs of it return only those relations, and asking for
another one is an internal error (engine/run.py ``Relations``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bufferlog.core import UserError, rules_file

from .program import Program

INTERFACE = "interface.dl"


@cache
def _entries() -> dict[str, dict[str, tuple[int, object]]]:
    """program -> relation -> (arity, location of its interface fact)."""
    prog = Program.load(rules_file(INTERFACE))
    prog.require_valid()
    out: dict[str, dict[str, tuple[int, object]]] = {}
    for r in (r for r in prog.rules if r.head.rel == "interface"):
        program, relation, arity = (a.value for a in r.head.args)
        out.setdefault(program, {})[relation] = (arity, r.loc)
    return out


def outputs(entry: str) -> list[str]:
    """The relations the Python side reads from program ``entry`` (e.g. "analysis.dl")."""
    return list(_entries()[entry])


def load(entry: str, rules_dir: str | Path | None = None, lenient: bool = False) -> Program:
    """Program ``entry`` with the ``rules_dir`` overlay, checked against the interface
    (``lenient``: see ``Program.load``)."""
    prog = Program.load(rules_file(entry), rules_dir, lenient=lenient)
    prog.require_valid()
    for rel, (arity, loc) in _entries()[entry].items():
        decl = prog.decls.get(rel)
        if decl is None:
            raise UserError(f"relation '{rel}', which the Python side reads from {entry}, is not "
                            "declared by the loaded rules", loc)
        if len(decl.attrs) != arity:
            raise UserError(f"relation '{rel}' has {len(decl.attrs)} column(s); the interface of "
                            f"{entry} reads {arity}", decl.loc)
    return prog
