"""The deallocation program (``rules/dealloc.dl``) and the one door through which the
backend reads what it derives.

rules/interface.dl lists every derived relation the Python backend reads, with its arity:
the output interface of the program. Loading checks that the program (shipped rules plus
any ``--rules DIR`` overlay) declares each of them with that arity, so an overlay that
drops or reshapes one is a located error, not an empty set; and a run returns only those
relations, so a misspelt name in Python is an internal error, never an empty result.
"""

from __future__ import annotations

from pathlib import Path

DEALLOC_MAIN = "dealloc.dl"


class Derived:
    """The relations of one run of the deallocation program, read by name, each as its
    rows in order (fact ids number ops and values in program order): what the backend
    emits, and in which order, must not hang on the order a set yields its rows, which
    changes with the ids, and so with functions elsewhere in the module."""

    def __init__(self, relations: dict[str, set[tuple]]):
        self._rel = relations
        self._sorted: dict[str, list[tuple]] = {}

    def __call__(self, name: str) -> list[tuple]:
        rows = self._sorted.get(name)
        if rows is None:  # a name outside rules/interface.dl: an internal error
            rows = self._sorted[name] = sorted(self._rel[name])
        return rows


def load(rules_dir: str | Path | None = None):
    """The deallocation program with the ``rules_dir`` overlay, checked against the
    output interface (rules/interface.dl). The overlay's added files join only if they use
    relations this program declares: one ``--rules`` directory serves the analysis too
    (a must_copy rule is the analysis' business; ``rules check`` checks every file)."""
    from bufferlog.engine.interface import load as load_checked

    return load_checked(DEALLOC_MAIN, rules_dir, lenient=True)


def derive(facts, engine: str = "auto", rules_dir: str | Path | None = None) -> Derived:
    """The single Datalog run: facts in, the interface relations out."""
    from bufferlog.engine.interface import outputs
    from bufferlog.engine.run import run

    prog = load(rules_dir)
    inputs = set(prog.inputs)  # a property that lists the directives: once, not per relation
    rows = {k: v for k, v in facts.rows.items() if k in inputs}
    return Derived(run(prog, rows, engine=engine, relations=outputs(DEALLOC_MAIN)).relations)
