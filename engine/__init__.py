"""bufferlog engine: Soufflé-subset Datalog on two engines, with provenance.

API::

    prog = Program.load("rules/main.dl", rules_dir=None)    # or Program.shipped()
    res = run(prog, {"edge": [("a", "b")]}, engine="auto", timeout=None, jobs=1)
    res.relations["path"]                                    # set of tuples (str | int)
    explain(prog, facts, 'path("a","b")', depth=4)           # proof tree (dict)
    why_not(prog, facts, 'path("b","a")')                    # failing literal per rule
    check(prog)                                              # list[Diagnostic]

Engines: ``souffle`` (subprocess; interpreted or compiled and cached), ``embedded``
(clingo, in-process), ``auto`` (souffle when available).
"""

from .check import Diagnostic, check
from .dl_parse import DatalogSyntaxError, Loc, format_tuple, parse_tuple
from .embedded import EngineError
from .facts_io import MalformedFacts, read_facts_dir, write_facts_dir
from .program import SHIPPED_RULES, Program
from .run import ENGINES, Result, resolve_engine, run

_PROVENANCE = ("explain", "render_text", "why_not")


def __getattr__(name: str):
    """The provenance functions, imported on first use (an analysis does not need them).
    (Names of submodules, like ``run`` and ``check``, are imported above: a submodule
    imported later would otherwise shadow them.)"""
    if name in _PROVENANCE:
        from . import provenance

        return getattr(provenance, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ENGINES", "SHIPPED_RULES", "DatalogSyntaxError", "Diagnostic", "EngineError", "Loc",
    "MalformedFacts", "Program", "Result", "check", "explain", "format_tuple", "parse_tuple",
    "read_facts_dir", "render_text", "resolve_engine", "run", "why_not", "write_facts_dir",
]
