"""The deallocation program (``rules/dealloc.dl``) and the one door through which the
backend reads what it derives.

:data:`DEALLOC_OUTPUTS` lists every derived relation the Python backend reads, with its
arity: the output interface of the program. Loading checks that the program (shipped
rules plus any ``--rules DIR`` overlay) declares each of them with that arity, so an
overlay that drops or reshapes one is a located error, not an empty set; and
:meth:`Derived.__call__` refuses a name outside the list, so a misspelt name in Python is
an internal error, never an empty result.
"""

from __future__ import annotations

from pathlib import Path

from bufferlog.core import UserError, rules_file

DEALLOC_MAIN = rules_file("dealloc.dl")

#: relation -> arity: everything backend/dealloc*.py reads (see rules/dealloc.dl).
DEALLOC_OUTPUTS: dict[str, int] = {
    "unknown_effects": 1,
    "unsupported": 1,
    "unsupported_branch": 1,
    "dead_buffer": 1,
    "needs_indicator": 1,
    "ownership": 2,
    "slot_edge": 3,
    "slot_init": 2,
    "edge_gives": 4,
    "init_gives": 3,
    "clone_fwd": 4,
    "free_on_edge": 3,
    "sink_free": 2,
    "return_clone": 4,
    "owning_root": 2,
    "edge_cond": 4,
    "const_bool": 2,
    "view_source": 2,
}


class Derived:
    """The relations of one run of the deallocation program, read by name."""

    def __init__(self, relations: dict[str, set[tuple]]):
        self._rel = relations

    def __call__(self, name: str) -> set[tuple]:
        if name not in DEALLOC_OUTPUTS:
            raise LookupError(f"dealloc backend reads relation '{name}', which is not in "
                              "DEALLOC_OUTPUTS (backend/dealloc_rules.py)")
        return self._rel[name]


def load(rules_dir: str | Path | None = None):
    """The deallocation program with the ``rules_dir`` overlay, checked against the
    output interface."""
    from bufferlog.engine.program import Program

    prog = Program.load(DEALLOC_MAIN, rules_dir)
    prog.require_valid()
    for name, arity in DEALLOC_OUTPUTS.items():
        decl = prog.decls.get(name)
        if decl is None:
            raise UserError(f"dealloc rules: relation '{name}' read by the backend is not "
                            f"declared (expected arity {arity}; see rules/dealloc.dl)")
        if len(decl.attrs) != arity:
            raise UserError(f"dealloc rules: relation '{name}' must have {arity} columns, "
                            f"not {len(decl.attrs)}", decl.loc)
    return prog


def derive(facts, engine: str = "auto", rules_dir: str | Path | None = None) -> Derived:
    """The single Datalog run: facts in, the interface relations out."""
    from bufferlog.engine.run import run

    prog = load(rules_dir)
    rows = {k: v for k, v in facts.rows.items() if k in prog.inputs}
    return Derived(run(prog, rows, engine=engine, relations=list(DEALLOC_OUTPUTS)).relations)
