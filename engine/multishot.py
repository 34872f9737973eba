"""Several runs of one program on facts that are mostly the same, in one clingo control.

An analysis session (engine/oneshot.py) runs rules/analysis.dl several times on one
module: every run holds the module's facts, and each adds facts of its own (decisions,
callee summaries, oracle answers). Run alone, each run makes clingo parse the module's
facts again and re-derive the relations that depend on nothing else (per-use semantics,
positions, ...). Here the first run adds those *shared* facts and the rules of the
*static* relations (those whose rules read, at any depth, only shared facts) as clingo's
``base`` part, grounded once; each run then adds and grounds a part of its own (clingo's
multi-shot grounding) holding its own facts and the other rules it needs, every relation
that is not shared or static renamed for the run (``p<k>_R``, so no run sees another's
tuples). The first run reads its relations from its model; a later run from the ground
program (the model would also show the earlier runs' relations: shows add up). A static
relation the grounded base holds no atom of is known empty, which the column sets of
``Translation.reach`` only over-approximate: no run is given the rules that read it
positively (on the 10,000-op chain a third of the first run's grounding).

The result of each run is the one :func:`embedded.evaluate` returns for the same facts
(tests/engine/test_multishot.py compares them): the base part holds exactly the rules
and facts a run alone would hold for the static relations, which no run's own facts
change. A run that does not hold the shared rows themselves (the same objects), or asks
for a relation the session did not announce, runs alone; so does every run after a
clingo error, which the run alone then reports with the rule it comes from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bufferlog.core.timing import phase

from . import embedded
from .clingo_api import Control
from .facts_io import Facts, Tuple
from .program import Program


def static_relations(tr: embedded.Translation, per_run: Iterable[str]) -> frozenset[str]:
    """The derived relations of ``tr``'s program that read (positively, negated or in an
    aggregate, at any depth) none of the ``per_run`` input relations (remembered with the
    translation: every analysis of a batch worker asks the same)."""
    per_run = frozenset(per_run)
    memo = tr.__dict__.setdefault("static_memo", {})
    got = memo.get(per_run)
    if got is None:
        got = memo[per_run] = _static_relations(tr, per_run)
    return got


def _static_relations(tr: embedded.Translation, per_run: frozenset[str]) -> frozenset[str]:
    readers: dict[str, set[str]] = {}
    for head, reads in zip(tr.heads, tr.reads, strict=True):
        for rel in reads:
            readers.setdefault(rel, set()).add(head)
    moving, todo = set(per_run), list(per_run)
    while todo:
        for head in readers.get(todo.pop(), ()):
            if head not in moving:
                moving.add(head)
                todo.append(head)
    return frozenset(tr.heads) - moving


class SharedRuns:
    """The runs of ``prog`` that hold the rows ``shared`` (the very objects) and ask for
    relations among ``wanted``. Close it (or use it as a context manager) to free the
    clingo control."""

    def __init__(self, prog: Program, shared: Mapping[str, list], wanted: Iterable[str]):
        self.prog = prog
        self.shared = dict(shared)
        self.wanted = frozenset(wanted)
        self.per_run = frozenset(r for r in prog.inputs if r not in self.shared)
        self.tr = embedded._translation(prog)
        self.static = static_relations(self.tr, self.per_run)
        self.ctl: Control | None = None
        self.base_rules: frozenset[int] = frozenset()
        self.settled: embedded.Reach | None = None
        self.runs = 0
        self.broken = False

    def __enter__(self) -> SharedRuns:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.ctl is not None:
            self.ctl.__exit__()
            self.ctl = None

    def evaluate(self, facts: Facts, relations: Iterable[str]) -> dict[str, set[Tuple]]:
        """The tuples of ``relations`` for ``facts``, as :func:`embedded.evaluate`."""
        relations = list(relations)
        if (self.broken or not self.wanted.issuperset(relations)
                or any(facts.get(r) is not rows for r, rows in self.shared.items())):
            return embedded.evaluate(self.prog, facts, relations)
        tr = self.tr
        if self.ctl is None:
            self._base()
        if self.broken:
            return embedded.evaluate(self.prog, facts, relations)
        kept, needed = tr.relevant(facts, frozenset(relations), settled=self.settled)
        if not self.base_rules.issuperset(i for i in kept if self._stays(i)):
            return embedded.evaluate(self.prog, facts, relations)  # not expected: see _base
        self.runs += 1
        k = self.runs
        pred = {r: p if r in self.shared or r in self.static else f"p{k}_{p[2:]}"
                for r, p in tr.pred.items()}
        lines = [tr.line(i, pred) for i in kept if not self._stays(i)]
        arity = {r: len(self.prog.decls[r].attrs) for r in relations}
        lines += [f"#show {pred[r]}/{arity[r]}." for r in relations]
        part = f"run{k}"
        try:
            with phase("clingo input"):
                self.ctl.add_statements(lines, part)
                own = {r: facts[r] for r in facts if r in needed and r not in self.shared}
                self.ctl.add_facts(tr.fact_rows(own, pred))
            with phase("clingo ground"):
                self.ctl.ground(part)
            with phase("clingo output"):
                atoms = self._atoms([(pred[r], arity[r]) for r in relations], first=k == 1)
        except RuntimeError:
            self.broken = True  # the run alone reports the error with its rule
            self.close()
            return embedded.evaluate(self.prog, facts, relations)
        if atoms is None:
            raise embedded.EngineError(embedded.NO_MODEL)
        with phase("clingo output"):
            atoms.sort()
            return {r: embedded._tuples(atoms, pred[r], arity[r]) for r in relations}

    def _atoms(self, preds: list[tuple[str, int]], first: bool) -> list[str] | None:
        """The atoms of ``preds``: the first run reads its model's shown atoms (its shows
        are the only ones yet); a later run reads them from the ground program, since
        its model would show every earlier run's atoms too (shows add up across parts),
        unless one is not a fact (the model decides: None if there is none)."""
        if not first:
            out: list[str] = []
            for name, arity in preds:
                got = self.ctl.facts_of(name, arity)
                if got is None:
                    break
                out += got
            else:
                return out
        return self.ctl.shown_atoms()

    def _stays(self, i: int) -> bool:
        """Rule ``i`` derives a static relation: it lies in the base part. (Read from the
        translation: the program's rules are unpickled only when used.)"""
        return self.tr.heads[i] in self.static

    def _base(self) -> None:
        """Add and ground the base part: the shared facts and the static relations' rules
        that any announced run may need (every per-run relation taken as holding anything,
        so a run's own selection of rules is within it)."""
        tr = self.tr
        reach = tr.reach(self.shared, open_rels=self.per_run)
        self.settled = tr.settle(reach, self.static)  # each run's selection starts from it
        kept, needed = tr.keep(reach.fires, self.wanted)
        self.base_rules = frozenset(i for i in kept if self._stays(i))
        self.ctl = Control(["--warn=none"])
        try:
            with phase("clingo input"):
                # nothing shown but what a run asks for
                self.ctl.add_statements(["#show.", *(tr.lines[i] for i in sorted(self.base_rules))])
                self.ctl.add_facts(tr.fact_rows({r: rows for r, rows in self.shared.items()
                                                 if r in needed}))
            with phase("clingo ground"):
                self.ctl.ground()
        except RuntimeError:
            self.broken = True
            self.close()
            return
        # a static relation whose rules the base holds (it is needed) and of which it
        # derived no atom is empty: the rules reading it cannot fire in any run (the
        # column sets of reach only over-approximate that)
        dom = self.settled.dom
        for rel in [r for r in dom if r in self.static and r in needed]:
            if not self.ctl.has_atoms(tr.pred[rel], len(self.prog.decls[rel].attrs)):
                del dom[rel]
