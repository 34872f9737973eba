"""Engine dispatch: ``run(program, facts) -> Result`` on ``souffle`` or ``embedded``.

``engine="auto"`` picks Soufflé when it is available (``$BUFFERLOG_SOUFFLE`` or on
``PATH``), else the embedded clingo engine.  Every run first checks the program
(``rules check``) and validates the facts, so both engines reject the same inputs.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from bufferlog.core import UserError
from bufferlog.core.records import record

from . import embedded, souffle
from .facts_io import Facts, Tuple, normalize, read_facts_dir
from .program import Program

ENGINES = ("auto", "souffle", "embedded")

ProgramLike = Program | str | Path | Sequence[str | Path]
FactsLike = Mapping[str, Iterable[Tuple]] | str | Path | None


class Relations(dict):
    """The relations a run returned, by name. Asking for one the run did not compute (a
    relation missing from the program's output interface, rules/interface.dl,
    or a misspelt name) is a bufferlog bug: an internal error naming it, never an empty
    set."""

    def __init__(self, rels: dict, program: str):
        super().__init__(rels)
        self.program = program

    def __missing__(self, name: str):
        from bufferlog.core import InternalError

        raise InternalError(f"relation '{name}' is not an output of {self.program} "
                            f"(outputs: {', '.join(sorted(self)) or 'none'})")


@record
class Result:
    relations: dict[str, set[Tuple]]
    engine: str
    seconds: float


def resolve_engine(engine: str) -> str:
    if engine not in ENGINES:
        raise UserError(f"unknown engine '{engine}' (choose from {', '.join(ENGINES)})")
    if engine == "auto":
        return "souffle" if souffle.find() else "embedded"
    return engine


def load_program(program: ProgramLike, rules_dir: str | Path | None = None) -> Program:
    return program if isinstance(program, Program) else Program.load(program, rules_dir)


def load_facts(prog: Program, facts: FactsLike) -> Facts:
    """Validated facts from a mapping or a directory of ``<rel>.facts`` files."""
    if isinstance(facts, str | Path):
        return read_facts_dir(prog, facts)
    return normalize(prog, facts)


def run(program: ProgramLike, facts: FactsLike = None, engine: str = "auto",
        timeout: float | None = None, jobs: int = 1, relations: Iterable[str] | str | None = None,
        compiled: bool = False, shared=None) -> Result:
    """Evaluate ``program`` on ``facts``.

    ``relations``: the relations to return; None means the ``.output`` relations, ``"all"``
    every declared relation.  ``compiled`` selects Soufflé's compiled mode (cached binary).
    ``shared``: the session's :class:`multishot.SharedRuns`, which the embedded engine
    uses when it runs in this process.
    """
    prog = load_program(program)
    prog.require_valid()
    fs = load_facts(prog, facts)
    rels = (list(prog.decls) if relations == "all"
            else prog.outputs if relations is None else list(relations))
    for r in rels:
        if r not in prog.decls:
            raise UserError(f"no relation '{r}' in the program")
    name = str(prog.files[0]) if prog.files else "program"
    which = resolve_engine(engine)
    start = time.perf_counter()
    if which == "souffle":
        out = souffle.run(prog, fs, rels, timeout=timeout, jobs=jobs, compiled=compiled, name=name)
    elif shared is not None and timeout is None and shared.prog is prog:
        out = shared.evaluate(fs, rels)
    else:
        out = embedded.run(prog, fs, rels, timeout=timeout, name=name)
    return Result(Relations(out, name), which, time.perf_counter() - start)
