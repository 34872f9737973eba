"""The embedded engine: the portable Soufflé subset translated to clingo (ASP).

A stratified Datalog program is a normal logic program whose unique stable model is its
least (stratified) model; clingo's grounder evaluates such programs bottom-up.  The
translation, clause by clause:

* relation ``R`` -> predicate ``r_R`` (clingo predicates must start lower-case; ``?`` in
  Soufflé identifiers becomes ``'``); variable ``x`` -> ``V_x``; ``_`` stays ``_``;
* symbols -> clingo strings (escaped ``\\\\``, ``\\"``, ``\\n``; other characters raw),
  numbers -> clingo integers; both are 32-bit signed and overflow wraps in both engines;
  ``/`` truncates toward zero, ``%`` (clingo ``\\``) takes the dividend's sign, as in C;
  a division by zero makes the rule instance not fire (Soufflé's behaviour is undefined);
* ``!a(..)`` -> ``not r_a(..)``;
* an aggregate term becomes a fresh variable ``A`` with ``A = #count{ E : body }``, where
  ``E`` is the target (sum/min/max) followed by every variable local to the aggregate
  (wildcards of positive atoms get fresh names), so each solution of the body counts
  once, as in Soufflé; ``min``/``max`` of nothing yields no tuple (``A != #sup``).

Errors from clingo are reported with the Soufflé rule they come from.
"""

from __future__ import annotations

import itertools
import re
import time
from bisect import bisect_left
from collections.abc import Iterable
from operator import itemgetter

from bufferlog.core import UserError
from bufferlog.core.regex import compile as compile_regex
from bufferlog.core.timing import phase

from .dl_parse import (
    Aggregate,
    Atom,
    BinOp,
    Literal,
    Neg,
    Negation,
    Num,
    Rule,
    Str,
    Term,
    Var,
    Wildcard,
)
from .facts_io import Facts, Tuple, Validated
from .program import Program


class EngineError(UserError):
    """The engine failed: crash, timeout, or an internal error."""


def clingo_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _mangle(name: str) -> str:
    return name.replace("?", "'")


class Translation:
    """Clingo text for a program, with the predicate map (line k is the program's rule k)."""

    def __init__(self, prog: Program):
        self.prog = prog
        self.pred = {rel: "r_" + _mangle(rel) for rel in prog.decls}
        self.rel_of = {p: r for r, p in self.pred.items()}
        self.lines = [rule_text(r, self.pred) for r in prog.rules]  # line k: rule k
        #: line k with each relation's name marked (\x01name\x02), for :meth:`line` (None
        #: if a rule's text holds a marker character: lines are translated anew)
        marked = {rel: "\x01" + rel + "\x02" for rel in prog.decls}
        self.templates = (None if any("\x01" in r.text or "\x02" in r.text for r in prog.rules)
                          else [rule_text(r, marked) for r in prog.rules])
        from .check import _body_atoms

        shape = [_Shape(*_abstract(r.head), [_abstract(lit) for lit in r.body
                                             if isinstance(lit, Atom)],
                        frozenset(a.rel for a, _ in _body_atoms(r.body)))
                 for r in prog.rules]
        self.order = _rule_order(shape)
        #: per rule, its head's relation and every relation it reads. (The rules' shapes
        #: themselves are not kept: a process unpickles this translation from the rules
        #: cache, and they were a third of its load time.)
        self.heads = [rule.head for rule in shape]
        self.reads = [rule.reads for rule in shape]
        #: per relation, the rules deriving it (:meth:`keep`)
        self.by_head: dict[str, list[int]] = {}
        for i, rule in enumerate(shape):
            self.by_head.setdefault(rule.head, []).append(i)
        #: per rule, its head and body as :meth:`reach` takes them (:func:`_compile`)
        self.compiled = [_compile(rule) for rule in shape]

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def line(self, i: int, pred: dict[str, str]) -> str:
        """Rule ``i``'s text with relation ``R`` named ``pred[R]``."""
        if self.templates is None:
            return rule_text(self.prog.rules[i], pred)
        return _MARKED.sub(lambda m: pred[m.group(1)], self.templates[i])

    def relevant(self, facts: Facts, wanted: frozenset[str], open_rels: Iterable[str] = (),
                 settled: Reach | None = None) -> tuple[list[int], frozenset[str]]:
        """The rules that can matter: clingo grounds every rule it is given, and a rule's
        cost is mostly paid even when its body never holds (60-90 µs a rule; some 30 ms
        for the analysis's rules on a small module, of which a third fire).

        Which rules can fire is over-approximated on column values (:meth:`reach`). A
        rule kept must also have its head asked for (``wanted``) or read by a kept rule.
        The rules left out never fire, or reach no asked-for relation: no asked-for tuple
        changes.

        Returns the kept rules' indices (their clingo text: ``lines[i]`` for each) and
        the relations whose facts the kept rules read."""
        return self.keep(self.reach(facts, open_rels, settled).fires, wanted)

    def keep(self, fires: list[bool], wanted: frozenset[str]
             ) -> tuple[list[int], frozenset[str]]:
        """:meth:`relevant` for rules that can fire as ``fires`` says."""
        by_head, reads = self.by_head, self.reads
        needed = set(wanted)
        todo = list(needed)
        while todo:  # what the rules that can fire for a needed relation read is needed
            for i in by_head.get(todo.pop(), ()):
                if fires[i]:
                    for rel in reads[i]:
                        if rel not in needed:
                            needed.add(rel)
                            todo.append(rel)
        kept = [i for i, head in enumerate(self.heads) if fires[i] and head in needed]
        return kept, frozenset(needed)

    def reach(self, facts: Facts, open_rels: Iterable[str] = (), settled: Reach | None = None
              ) -> Reach:
        """Which rules can fire, and the values each relation's columns may then hold.

        Each relation keeps, per column, the set of values it may hold (None: any; a set
        over ``_CAP`` values becomes None). Facts give the input relations' sets;
        ``open_rels`` are input relations that may hold anything, whatever ``facts`` say.
        A rule can fire when each atom of its body (positive, outside aggregates: a
        ``count`` of nothing is 0) is of a relation that may hold tuples, each constant
        argument is in its column's set, and each variable's columns have a value in
        common; its head's columns then get its constants and its variables' common
        values. Rules are taken callee-relation first, a recursive group until nothing
        changes. ``settled``: an earlier answer for derived relations ``settled.rels``
        whose rules read, at any depth, only facts this call has too: their rules are
        not taken again (engine/multishot.py)."""
        dom: dict[str, list] = {}
        fires = [False] * len(self.heads)
        skip: frozenset[str] = frozenset()
        if settled is not None:
            dom = {rel: list(cols) for rel, cols in settled.dom.items()}
            fires = list(settled.fires)
            skip = settled.rels
        for rel, rows in facts.items():
            if rows and rel in self.pred:
                dom[rel] = list(_column_values(rows))  # a copy: rules may add to it
        for rel in open_rels:
            dom[rel] = [_ANY] * len(self.prog.decls[rel].attrs)
        compiled = self.compiled
        for group, recursive in self.order:
            if self.heads[group[0]] in skip:
                continue
            todo = group
            while todo:
                grown: set[str] = set()
                for i in todo:
                    head, args, body = compiled[i]
                    got = _fire(body, dom)
                    if got is None:
                        continue
                    fires[i] = True
                    if _widen(dom, head, [got.get(a, _ANY) if type(a) is str else a
                                          for a in args]):
                        grown.add(head)
                if not recursive or not grown:
                    break
                # again only the rules that read a relation that grew (semi-naive)
                todo = [i for i in group
                        if any(atom[0] in grown for atom in compiled[i][2])]
        return Reach(dom, fires, skip)

    def settle(self, reach: Reach, rels: frozenset[str]) -> Reach:
        """``reach`` kept for the derived relations ``rels`` only: the ``settled`` of
        later calls whose facts differ only in relations that ``rels`` do not read."""
        return Reach({r: c for r, c in reach.dom.items() if r in rels},
                     [f and self.heads[i] in rels for i, f in enumerate(reach.fires)],
                     rels)

    def fact_rows(self, facts: Facts, pred: dict[str, str] | None = None
                  ) -> list[tuple[str, list[Tuple]]]:
        """Validated facts as ``Control.add_facts`` takes them: each relation's predicate
        (``pred``: other names than the translation's) with its rows."""
        pred = self.pred if pred is None else pred
        return [(pred[rel], rows) for rel, rows in facts.items() if rows]

    def fact_text(self, facts: Facts, pred: dict[str, str] | None = None) -> str:
        """Validated facts as clingo text, one ``%``-template per relation: what
        :meth:`fact_rows` adds, for the runs that need text (an error's located message,
        tests through the ``clingo`` package). ``pred``: other predicate names."""
        pred = self.pred if pred is None else pred
        parts: list[str] = []
        for rel, rows in facts.items():
            if not rows:
                continue
            p = pred[rel]
            types = self.prog.column_types(rel)
            if not types:
                parts.append(f"{p}.\n")
                continue
            line = p + "(" + ",".join("%d" if t == "number" else "%s" for t in types) + ").\n"
            if "symbol" in types:  # quote each distinct symbol once, a column at a time
                cols = list(zip(*rows, strict=True))
                for j, t in enumerate(types):
                    if t != "number":
                        quoted = {v: clingo_string(v) for v in set(cols[j])}
                        cols[j] = tuple(map(quoted.__getitem__, cols[j]))
                rows = list(zip(*cols, strict=True))
            parts.append("".join([line % row for row in rows]))
        return "".join(parts)


class Reach:
    """What :meth:`Translation.reach` found: per relation the values its columns may hold
    (``dom``), per rule whether it can fire (``fires``), and which relations it took as
    settled (``rels``)."""

    __slots__ = ("dom", "fires", "rels")

    def __init__(self, dom: dict[str, list], fires: list[bool], rels: frozenset[str]):
        self.dom, self.fires, self.rels = dom, fires, rels


_MARKED = compile_regex("\x01([^\x02]*)\x02")
_CAP = 64  #: a column with more values than this may hold any value
_ANY = None  #: a column that may hold any value


class _Shape(tuple):
    """A rule as :class:`Translation` abstracts it: ``(head, args, body, reads)``. Atom
    arguments are a variable's name, ("=", constant) or None (anything else). (A tuple
    with named fields, written out: a ``NamedTuple`` class costs ~0.3 ms to create at
    every start-up.)"""

    __slots__ = ()
    head = property(itemgetter(0), doc="the head's relation")
    args = property(itemgetter(1), doc="the head's arguments")
    body = property(itemgetter(2), doc="positive atoms outside aggregates: (relation, arguments)")
    reads = property(itemgetter(3), doc="every relation the rule reads")

    def __new__(cls, head: str, args: list, body: list[tuple[str, list]], reads: frozenset[str]):
        return tuple.__new__(cls, (head, args, body, reads))


def _abstract(atom: Atom) -> tuple[str, list]:
    """An atom for :meth:`Translation.relevant`: its relation and, per argument, the
    variable's name, ("=", constant) or None."""
    args: list = []
    for t in atom.args:
        if isinstance(t, Var):
            args.append(t.name)
        elif isinstance(t, Str | Num):
            args.append(("=", t.value))
        elif isinstance(t, Neg) and isinstance(t.operand, Num):
            args.append(("=", -t.operand.value))
        else:
            args.append(None)
    return atom.rel, args


def _rule_order(shape: list[_Shape]) -> list[tuple[list[int], bool]]:
    """The rules grouped by the strongly connected components of their heads' relations
    over positive body atoms, a group after every group it reads (Tarjan's algorithm,
    iterative), each with whether it is recursive."""
    deps: dict[str, set[str]] = {}
    for rule in shape:
        deps.setdefault(rule.head, set()).update(rel for rel, _ in rule.body)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comp_of: dict[str, int] = {}
    comps: list[list[str]] = []
    for root in deps:
        if root in index:
            continue
        work = [(root, iter(sorted(deps.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(deps.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp: list[str] = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp_of[w] = len(comps)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
    groups: list[list[int]] = [[] for _ in comps]
    recursive = [False] * len(comps)
    for i, rule in enumerate(shape):
        c = comp_of[rule.head]
        groups[c].append(i)
        recursive[c] |= any(comp_of.get(rel) == c for rel, _ in rule.body)
    return [(g, r) for g, r in zip(groups, recursive, strict=True) if g]


def _column_values(rows) -> list:
    """Per column of ``rows``, its set of values (None past ``_CAP``); kept with
    validated rows, which every run of a session shares."""
    known = getattr(rows, "domains", None)
    if known is not None:
        return known
    out: list = []
    head = rows[: 4 * _CAP]
    for j in range(len(rows[0])):
        get = itemgetter(j)
        if len(rows) > len(head) and len(set(map(get, head))) > _CAP:
            out.append(_ANY)  # e.g. a column of op ids: no need to read it all
            continue
        vals = set(map(get, rows))
        out.append(frozenset(vals) if len(vals) <= _CAP else _ANY)
    if type(rows) is Validated:
        rows.domains = out
    return out


def _compile(rule: _Shape) -> tuple[str, list, tuple]:
    """A rule as :meth:`Translation.reach` takes it: its head, the head's arguments (a
    variable's name, the one-value set of a constant, or None: anything) and per body
    atom its relation, its constants' (column, value) and its variables' (column, name)."""
    args = [a if type(a) is str else (frozenset((a[1],)) if a is not None else _ANY)
            for a in rule.args]
    body = tuple((rel, tuple((j, a[1]) for j, a in enumerate(atom) if type(a) is tuple),
                  tuple((j, a) for j, a in enumerate(atom) if type(a) is str))
                 for rel, atom in rule.body)
    return rule.head, args, body


def _fire(body: tuple, dom: dict[str, list]) -> dict[str, frozenset | None] | None:
    """The values each variable of a rule's body (:func:`_compile`) may take, or None if
    the body cannot hold (see :meth:`Translation.relevant`)."""
    env: dict[str, frozenset | None] = {}
    for rel, consts, variables in body:
        cols = dom.get(rel)
        if cols is None:
            return None
        for j, value in consts:
            vals = cols[j]
            if vals is not _ANY and value not in vals:
                return None
        for j, a in variables:
            vals = cols[j]
            if a in env:
                if vals is not _ANY:
                    have = env[a]
                    have = vals if have is _ANY else have & vals
                    if not have:
                        return None
                    env[a] = have
            else:
                env[a] = vals
    return env


def _widen(dom: dict[str, list], rel: str, cols: list) -> bool:
    """Add a rule's head values to ``rel``'s columns; True if anything grew."""
    have = dom.get(rel)
    if have is None:
        dom[rel] = cols
        return True
    grew = False
    for j, (old, new) in enumerate(zip(have, cols, strict=True)):
        if old is _ANY:
            continue
        if new is _ANY or not new <= old:
            merged = _ANY if new is _ANY else old | new
            if merged is not _ANY and len(merged) > _CAP:
                merged = _ANY
            have[j] = merged
            grew = True
    return grew


def rule_text(rule: Rule, pred: dict[str, str]) -> str:
    """Clingo text of ``rule``, relation ``R`` named ``pred[R]``."""
    return _RuleTranslator(pred, rule).text()


class _RuleTranslator:
    def __init__(self, pred: dict[str, str], rule: Rule):
        self.pred = pred
        self.rule = rule
        self.fresh = itertools.count(1)
        self.pre: list[str] = []  # aggregate literals lifted out of terms

    def text(self) -> str:
        r = self.rule
        head = self.atom(r.head)
        body = [self.literal(lit) for lit in r.body]
        body = self.pre + body
        return f"{head} :- {', '.join(body)}." if body else f"{head}."

    def var(self, name: str) -> str:
        return "V_" + _mangle(name)

    def term(self, t: Term) -> str:
        if isinstance(t, Var):
            return self.var(t.name)
        if isinstance(t, Wildcard):
            return "_"
        if isinstance(t, Str):
            return clingo_string(t.value)
        if isinstance(t, Num):
            return f"({t.value})" if t.value < 0 else str(t.value)
        if isinstance(t, BinOp):
            op = "\\" if t.op == "%" else t.op
            return f"({self.term(t.left)}{op}{self.term(t.right)})"
        if isinstance(t, Neg):
            return f"-({self.term(t.operand)})"
        assert isinstance(t, Aggregate)
        return self.aggregate(t)

    def atom(self, a: Atom) -> str:
        p = self.pred[a.rel]
        return f"{p}({','.join(self.term(t) for t in a.args)})" if a.args else p

    def literal(self, lit: Literal) -> str:
        if isinstance(lit, Atom):
            return self.atom(lit)
        if isinstance(lit, Negation):
            return "not " + self.atom(lit.atom)
        return f"{self.term(lit.left)}{lit.op}{self.term(lit.right)}"

    def aggregate(self, agg: Aggregate) -> str:
        outside = _outer_vars(self.rule)
        n = next(self.fresh)
        res = f"A{n}_"
        conds: list[str] = []
        local_names: list[str] = []
        for lit in agg.body:
            if isinstance(lit, Atom):
                args = []
                for t in lit.args:
                    if isinstance(t, Wildcard):
                        w = f"W{n}_{next(self.fresh)}_"
                        local_names.append(w)
                        args.append(w)
                    else:
                        args.append(self.term(t))
                p = self.pred[lit.rel]
                conds.append(f"{p}({','.join(args)})" if args else p)
            else:
                conds.append(self.literal(lit))
        locals_ = sorted({v for v in _literal_vars(agg.body) if v not in outside})
        elems = [self.var(v) for v in locals_] + local_names
        if agg.target is not None:
            elems.insert(0, self.term(agg.target))
        elem = ",".join(elems) if elems else "0"
        fn = {"count": "#count", "sum": "#sum", "min": "#min", "max": "#max"}[agg.kind]
        self.pre.append(f"{res} = {fn}{{ {elem} : {', '.join(conds)} }}")
        if agg.kind == "min":
            self.pre.append(f"{res} != #sup")
        elif agg.kind == "max":
            self.pre.append(f"{res} != #inf")
        return res


def _term_vars(t: Term | None) -> set[str]:
    if isinstance(t, Var):
        return {t.name}
    if isinstance(t, BinOp):
        return _term_vars(t.left) | _term_vars(t.right)
    if isinstance(t, Neg):
        return _term_vars(t.operand)
    if isinstance(t, Aggregate):
        return _term_vars(t.target) | _literal_vars(t.body)
    return set()


def _literal_vars(body: Iterable[Literal]) -> set[str]:
    out: set[str] = set()
    for lit in body:
        if isinstance(lit, Atom):
            terms: Iterable[Term] = lit.args
        elif isinstance(lit, Negation):
            terms = lit.atom.args
        else:
            terms = (lit.left, lit.right)
        for t in terms:
            out |= _term_vars(t)
    return out


def _outer_vars(rule: Rule) -> set[str]:
    """Variables of ``rule`` outside every aggregate: the grouping variables."""

    def walk(t: Term) -> set[str]:
        if isinstance(t, Aggregate):
            return set()
        if isinstance(t, BinOp):
            return walk(t.left) | walk(t.right)
        if isinstance(t, Neg):
            return walk(t.operand)
        return _term_vars(t)

    out: set[str] = set()
    for t in rule.head.args:
        out |= walk(t)
    for lit in rule.body:
        terms = lit.args if isinstance(lit, Atom) else lit.atom.args \
            if isinstance(lit, Negation) else (lit.left, lit.right)
        for t in terms:
            out |= walk(t)
    return out


# --------------------------------------------------------------------- evaluation


_ARG = compile_regex(r'"((?:[^"\\]|\\.)*)"|(-?[0-9]+)')
_UNESCAPE = compile_regex(r"\\(.)")


def _unescape(s: str) -> str:
    return _UNESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), s) if "\\" in s else s


def _args(text: str) -> Tuple:
    """Arguments of an atom from its clingo text, e.g. ``r_p("a\\"b",-3)``.  Converting
    via ``str`` is several times faster than walking ``Symbol.arguments``."""
    i = text.find("(")
    if i < 0:
        return ()
    inner = text[i + 1 : -1]
    if '"' not in inner:
        return tuple(map(int, inner.split(",")))
    return tuple(_unescape(s) if n == "" else int(n) for s, n in _ARG.findall(inner))


def _tuples(atoms: list[str], pred: str, arity: int) -> set[Tuple]:
    """The tuples of ``pred`` among ``atoms`` (sorted atom texts). Atoms of numbers only
    are read all at once: prefix and parentheses removed from the joined text, then one
    ``int`` per number (most atoms are numbers)."""
    if arity == 0:
        i = bisect_left(atoms, pred)
        return {()} if i < len(atoms) and atoms[i] == pred else set()
    head = pred + "("
    block = atoms[bisect_left(atoms, head):bisect_left(atoms, pred + ")")]  # ")" follows "("
    if not block:
        return set()
    text = "\n".join(block)
    if '"' in text:
        return set(map(_args, block))
    numbers = map(int, text.replace(head, "").replace(")", "").replace("\n", ",").split(","))
    return set(zip(*[numbers] * arity, strict=True))


_TRANSLATIONS: dict[int, Translation] = {}


def _translation(prog: Program) -> Translation:
    """The clingo text of a loaded (hence immutable, memoised) program, made once and
    kept with the program (also across processes: ``Program.persist``)."""
    if isinstance(prog._tr, Translation) and prog._tr.prog is prog:
        return prog._tr
    tr = _TRANSLATIONS.get(id(prog))
    if tr is None or tr.prog is not prog:
        if len(_TRANSLATIONS) > 64:
            _TRANSLATIONS.clear()
        tr = _TRANSLATIONS[id(prog)] = Translation(prog)
        prog._tr = tr
        prog.persist()
    return tr


#: a stratified program always has one model: none means the rules are not stratified
NO_MODEL = ("embedded engine (clingo): the program has no model (is its negation stratified? "
            "run `bufferlog rules check`)")


def evaluate(prog: Program, facts: Facts, relations: Iterable[str]) -> dict[str, set[Tuple]]:
    """Evaluate in this process; return the tuples of ``relations``. ``--timing`` shows
    its three parts: the rules and facts parsed by clingo, grounding (which decides a
    stratified program), and the wanted tuples read back."""
    from .clingo_api import Control

    relations = list(relations)
    tr = _translation(prog)
    kept, needed = tr.relevant(facts, frozenset(relations))
    with Control(["--warn=none"]) as ctl:
        try:
            with phase("clingo input"):
                ctl.add_statements([tr.lines[i] for i in kept])
                # facts no kept rule reads (e.g. the ops' text and locations) are left out
                ctl.add_facts(tr.fact_rows({r: facts[r] for r in facts if r in needed}))
                ctl.add("".join(f"#show {tr.pred[r]}/{len(prog.decls[r].attrs)}.\n"
                                for r in relations))
            with phase("clingo ground"):
                ctl.ground()
        except RuntimeError:
            raise EngineError(_clingo_error(tr, kept, facts, needed)) from None
        with phase("clingo output"):
            # stratified: one model, which the grounder already decided
            atoms = ctl.shown_atoms()
            if atoms is None:
                raise EngineError(NO_MODEL)
            atoms.sort()  # each predicate's atoms in one run of the list
            return {r: _tuples(atoms, tr.pred[r], len(prog.decls[r].attrs)) for r in relations}


def _clingo_error(tr: Translation, kept: list[int], facts: Facts,
                  needed: frozenset[str]) -> str:
    """Why clingo refused the kept rules: they are given again as one text, whose line
    numbers in clingo's messages name the rule at fault (line k is rule ``kept[k-1]``;
    the parsed statements that failed carry none)."""
    from .clingo_api import Control

    with Control(["--warn=none"]) as ctl:
        try:
            ctl.add("".join(tr.lines[i] + "\n" for i in kept))
            ctl.add(tr.fact_text({r: facts[r] for r in facts if r in needed}))
            ctl.ground()
        except RuntimeError:
            pass
        return _explain_clingo_error(tr, kept, ctl.messages)


def _explain_clingo_error(tr: Translation, kept: list[int], messages: list[str]) -> str:
    for msg in messages:
        m = re.search(r"<block>:(\d+):", msg)
        if m and 1 <= int(m.group(1)) <= len(kept):
            r = tr.prog.rules[kept[int(m.group(1)) - 1]]
            return (f"embedded engine (clingo) rejected the rule at {r.loc} "
                    f"({r.text}): {msg.strip()}")
    return "embedded engine (clingo) failed: " + " ".join(m.strip() for m in messages)


def _child(conn, prog: Program, facts: Facts, relations: list[str]) -> None:
    try:
        conn.send(("ok", evaluate(prog, facts, relations)))
    except UserError as e:
        conn.send(("error", e.message))
    except BaseException as e:  # report anything, the parent names the engine
        conn.send(("error", f"embedded engine (clingo) crashed: {type(e).__name__}: {e}"))
    finally:
        conn.close()


def run(prog: Program, facts: Facts, relations: Iterable[str],
        timeout: float | None = None, name: str = "program") -> dict[str, set[Tuple]]:
    """Evaluate; with a ``timeout`` the evaluation runs in a forked child process that is
    killed when the time is up (clingo's grounder cannot be interrupted in-process)."""
    relations = list(relations)
    if timeout is None:
        return evaluate(prog, facts, relations)
    import multiprocessing  # only here: its import costs ~10 ms of every start-up

    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, prog, facts, relations), daemon=True)
    start = time.monotonic()
    proc.start()
    send.close()
    try:
        if not recv.poll(timeout):
            proc.kill()
            raise EngineError(f"embedded engine (clingo) timed out after {timeout:g} s "
                              f"evaluating {name}")
        try:
            status, payload = recv.recv()
        except EOFError:
            proc.join(max(0.0, timeout - (time.monotonic() - start)))
            raise EngineError(f"embedded engine (clingo) crashed evaluating {name} "
                              f"(exit code {proc.exitcode})") from None
    finally:
        proc.join(1)
        if proc.is_alive():
            proc.kill()
        recv.close()
    if status == "error":
        raise EngineError(payload)
    return payload
