"""The deallocation program (``rules/dealloc.dl``) and the one door through which the
backend reads what it derives.

rules/interface.dl lists every derived relation the Python backend reads, with its arity:
the output interface of the program. Loading checks that the program (shipped rules plus
any ``--rules DIR`` overlay) declares each of them with that arity, so an overlay that
drops or reshapes one is a located error, not an empty set; a run returns only those
relations, read through the typed accessors generated from the interface
(``DeallocOutputs``: ``out.ownership`` gives rows with named fields), so a misspelt name
is an error, never an empty result.
"""

from __future__ import annotations

from pathlib import Path

DEALLOC_MAIN = "dealloc.dl"


def load(rules_dir: str | Path | None = None):
    """The deallocation program with the ``rules_dir`` overlay, checked against the
    output interface (rules/interface.dl). The overlay's added files join only if they use
    relations this program declares: one ``--rules`` directory serves the analysis too
    (a must_copy rule is the analysis' business; ``rules check`` checks every file)."""
    from bufferlog.engine.interface import load as load_checked

    return load_checked(DEALLOC_MAIN, rules_dir, lenient=True)


def derive(facts, engine: str = "auto", rules_dir: str | Path | None = None):
    """The single Datalog run: facts in, the interface relations out, read through the
    typed accessors of ``DeallocOutputs`` (engine/outputs.py). What the backend emits, and
    in which order, must not hang on the order a set yields its rows (which changes with
    the fact ids, and so with functions elsewhere in the module): it reads them sorted."""
    from bufferlog.engine.outputs import DeallocOutputs
    from bufferlog.engine.run import run

    prog = load(rules_dir)
    inputs = set(prog.inputs)  # a property that lists the directives: once, not per relation
    rows = {k: v for k, v in facts.rows.items() if k in inputs}
    return DeallocOutputs(run(prog, rows, engine=engine, relations=DeallocOutputs.RELATIONS).relations)
