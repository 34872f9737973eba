"""The output interface (rules/interface.dl): which derived relations the Python side
reads from each rules program, with their arities, as engine/outputs.py (generated from it)
gives them. ``load(entry, rules_dir)`` loads a program checked against it (a relation the
rules do not declare, or declare with another arity, is a located error); runs of it
return only those relations, read through the program's typed accessors
(``outputs.AnalysisOutputs``, ...), and asking for another one is an internal error
(engine/run.py ``Relations``)."""

from __future__ import annotations

from pathlib import Path

from bufferlog.core import UserError, rules_file

from .dl_parse import Loc
from .outputs import ENTRIES
from .program import Program

INTERFACE = "interface.dl"


def _entries() -> dict[str, dict[str, tuple[int, int]]]:
    """program -> relation -> (arity, line of its interface fact)."""
    return ENTRIES


def outputs(entry: str) -> list[str]:
    """The relations the Python side reads from program ``entry`` (e.g. "analysis.dl")."""
    return list(_entries()[entry])


def load(entry: str, rules_dir: str | Path | None = None, lenient: bool = False,
         foreign: tuple[str, ...] = ()) -> Program:
    """Program ``entry`` with the ``rules_dir`` overlay, checked against the interface
    (``lenient``, ``foreign`` (entries of the other programs): see ``Program.load``)."""
    prog = Program.load(rules_file(entry), rules_dir, lenient=lenient,
                        foreign=[rules_file(f) for f in foreign])
    prog.require_valid()
    for rel, (arity, line) in _entries()[entry].items():
        decl = prog.decls.get(rel)
        if decl is None:
            raise UserError(f"relation '{rel}', which the Python side reads from {entry}, is not "
                            "declared by the loaded rules", Loc(str(rules_file(INTERFACE)), line, 1))
        if len(decl.attrs) != arity:
            raise UserError(f"relation '{rel}' has {len(decl.attrs)} column(s); the interface of "
                            f"{entry} reads {arity}", decl.loc)
    return prog
