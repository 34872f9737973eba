"""Provenance: proof trees for derived tuples (``explain``) and the failing body literal
of every candidate rule for an underived one (``why-not``).

One JSON shape whichever engine ran.  An explanation is::

    {"query": "path(\\"a\\",\\"c\\")", "engine": "embedded", "derived": true, "height": 2,
     "proof": NODE}

where NODE is a rule node ``{"tuple", "height", "rule": {"id", "file", "line", "text"},
"premises": [NODE...]}``, an input fact ``{"tuple", "fact": true}``, a negated premise
``{"tuple": "!rel(..)", "negated": true}`` or, below ``depth``, a cut-off node
``{"tuple", "subproof": "<tuple>", "truncated": true}`` (explain that tuple to expand it).

The embedded engine searches proofs over the computed model: instances of the rules whose
heads are the goal tuples, found by matching rule bodies against the model, then the
minimal proof height of every goal (Knuth's generalisation of Dijkstra's algorithm, since
a proof's height is 1 + the largest premise height).  With Soufflé the proof comes from
``souffle -t explain`` and is converted to the same shape; why-not evaluates candidate
rules over the model computed by the selected engine.
"""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Iterator

from bufferlog.core import UserError
from bufferlog.core.records import record

from . import souffle
from .dl_parse import (
    Aggregate,
    Atom,
    BinOp,
    DatalogSyntaxError,
    Literal,
    Neg,
    Negation,
    Num,
    Rule,
    Str,
    Term,
    Var,
    Wildcard,
    format_tuple,
    parse_tuple,
)
from .facts_io import Facts, Tuple
from .program import Program
from .run import FactsLike, ProgramLike, load_facts, load_program, resolve_engine
from .run import run as run_engine

Binding = dict[str, str | int]
Fact = tuple[str, Tuple]


class _Undefined(Exception):
    """An arithmetic term without a value (division by zero, unbound variable)."""


def _wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def _arith(op: str, a: int, b: int) -> int:
    if op == "+":
        return _wrap32(a + b)
    if op == "-":
        return _wrap32(a - b)
    if op == "*":
        return _wrap32(a * b)
    if b == 0:
        raise _Undefined
    q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C: truncate toward zero
    return _wrap32(q) if op == "/" else _wrap32(a - b * q)


def _cmp(op: str, a, b) -> bool:
    return {"=": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _vars(t: Term) -> set[str]:
    if isinstance(t, Var):
        return {t.name}
    if isinstance(t, BinOp):
        return _vars(t.left) | _vars(t.right)
    if isinstance(t, Neg):
        return _vars(t.operand)
    return set()  # aggregates are evaluated as a whole once their grouping vars are bound


def _name_wildcards(rule: Rule) -> Rule:
    """Wildcards of positive top-level atoms get names, so premises are fully known."""
    n = itertools.count()
    body: list[Literal] = []
    for lit in rule.body:
        if isinstance(lit, Atom):
            lit = Atom(lit.rel, tuple(Var(f"_{next(n)}", t.loc) if isinstance(t, Wildcard) else t
                                      for t in lit.args), lit.loc)
        body.append(lit)
    return Rule(rule.head, tuple(body), rule.loc, rule.text, rule.rid)


class Model:
    """Relations with lazily built hash indexes on bound column sets."""

    def __init__(self, relations: dict[str, set[Tuple]]):
        self.rel = relations
        self._idx: dict[tuple[str, tuple[int, ...]], dict[Tuple, list[Tuple]]] = {}

    def contains(self, rel: str, t: Tuple) -> bool:
        return t in self.rel.get(rel, ())

    def lookup(self, rel: str, cols: tuple[int, ...], key: Tuple) -> list[Tuple]:
        ix = self._idx.get((rel, cols))
        if ix is None:
            ix = {}
            for t in sorted(self.rel.get(rel, ())):
                ix.setdefault(tuple(t[c] for c in cols), []).append(t)
            self._idx[(rel, cols)] = ix
        return ix.get(key, [])


class Matcher:
    """Evaluates rule bodies over a model, literal by literal in written order; a
    comparison or negation whose variables are not yet bound waits for later literals."""

    def __init__(self, model: Model):
        self.model = model

    def value(self, t: Term, b: Binding):
        if isinstance(t, Var):
            if t.name not in b:
                raise _Undefined
            return b[t.name]
        if isinstance(t, Str | Num):
            return t.value
        if isinstance(t, BinOp):
            return _arith(t.op, self.value(t.left, b), self.value(t.right, b))
        if isinstance(t, Neg):
            return _wrap32(-self.value(t.operand, b))
        if isinstance(t, Aggregate):
            return self.aggregate(t, b)
        raise _Undefined  # wildcard

    def aggregate(self, agg: Aggregate, b: Binding):
        sols = list(self.solve(agg.body, b))
        if agg.kind == "count":
            return len(sols)
        vals = [self.value(agg.target, s) for s in sols] if agg.target is not None else []
        if agg.kind == "sum":
            return _wrap32(sum(vals))
        if not vals:
            raise _Undefined
        return min(vals) if agg.kind == "min" else max(vals)

    def ready(self, lit: Literal, b: set[str]) -> bool:
        if isinstance(lit, Atom):
            return True
        if isinstance(lit, Negation):
            return all(v in b for t in lit.atom.args for v in _vars(t))
        free = [v for t in (lit.left, lit.right) for v in _vars(t) if v not in b]
        if not free:
            return True
        return lit.op == "=" and any(
            isinstance(side, Var) and side.name in free and set(free) == {side.name}
            for side in (lit.left, lit.right))

    def step(self, lit: Literal, b: Binding) -> Iterator[Binding]:
        """Extensions of binding ``b`` satisfying ``lit``."""
        try:
            if isinstance(lit, Atom):
                yield from self.match(lit, b)
            elif isinstance(lit, Negation):
                vals = [None if isinstance(t, Wildcard) else self.value(t, b) for t in lit.atom.args]
                cols = tuple(i for i, v in enumerate(vals) if v is not None)
                if not self.model.lookup(lit.atom.rel, cols, tuple(vals[i] for i in cols)):
                    yield b
            else:
                for var_side, other in ((lit.left, lit.right), (lit.right, lit.left)):
                    if lit.op == "=" and isinstance(var_side, Var) and var_side.name not in b:
                        yield {**b, var_side.name: self.value(other, b)}
                        return
                if _cmp(lit.op, self.value(lit.left, b), self.value(lit.right, b)):
                    yield b
        except _Undefined:
            return

    def match(self, a: Atom, b: Binding) -> Iterator[Binding]:
        cols: list[int] = []
        key: list = []
        later: list[tuple[int, Term]] = []
        for i, t in enumerate(a.args):
            if isinstance(t, Var) and t.name not in b or isinstance(t, Wildcard):
                continue
            try:
                key.append(self.value(t, b))
                cols.append(i)
            except _Undefined:
                later.append((i, t))
        for tup in self.model.lookup(a.rel, tuple(cols), tuple(key)):
            nb = dict(b)
            ok = True
            for i, t in enumerate(a.args):
                if isinstance(t, Var) and t.name not in b:
                    if nb.setdefault(t.name, tup[i]) != tup[i]:
                        ok = False
                        break
            if ok:
                try:
                    ok = all(self.value(t, nb) == tup[i] for i, t in later)
                except _Undefined:
                    ok = False
            if ok:
                yield nb

    def solve_steps(self, body: tuple[Literal, ...], start: list[Binding]):
        """Set-at-a-time evaluation; yields (literal, bindings before, bindings after)."""
        pending = list(body)
        bs = start
        while pending:
            bound = set(bs[0]) if bs else set()
            pick = next((lit for lit in pending if self.ready(lit, bound)), pending[0])
            pending.remove(pick)
            after = [nb for x in bs for nb in self.step(pick, x)]
            yield pick, bs, after
            bs = after
            if not bs:
                return

    def solve(self, body: tuple[Literal, ...], b: Binding) -> Iterator[Binding]:
        bs = [b]
        for _lit, _before, after in self.solve_steps(body, [b]):
            bs = after
        return iter(bs)

    def unify_head(self, head: Atom, t: Tuple) -> tuple[Binding, list[tuple[Term, object]]] | None:
        """Binding from matching ``head`` with tuple ``t``; expression arguments are
        returned as checks to make once the body is solved."""
        b: Binding = {}
        checks: list[tuple[Term, object]] = []
        for arg, v in zip(head.args, t, strict=True):
            if isinstance(arg, Var):
                if b.setdefault(arg.name, v) != v:
                    return None
            elif isinstance(arg, Str | Num):
                if arg.value != v:
                    return None
            else:
                checks.append((arg, v))
        return b, checks

    def instances(self, rule: Rule, t: Tuple) -> list[Binding]:
        u = self.unify_head(rule.head, t)
        if u is None:
            return []
        b, checks = u
        out = []
        for s in self.solve(rule.body, b):
            try:
                if all(self.value(term, s) == v for term, v in checks):
                    out.append(s)
            except _Undefined:
                pass
        return out


# --------------------------------------------------------------------- proof search


@record
class _Inst:
    rule: Rule
    head: Fact
    premises: list[Fact]  # positive atoms, body order
    negated: list[str]  # rendered negated atoms, body order
    order: list[tuple[str, int]]  # body order of ("pos"|"neg", index)


class ProofSearch:
    """Minimal-height proofs over a computed model."""

    def __init__(self, prog: Program, facts: Facts, model: dict[str, set[Tuple]]):
        self.prog = prog
        self.model = Model(model)
        self.matcher = Matcher(self.model)
        self.rules = {rel: [_name_wildcards(r) for r in prog.rules_for(rel)] for rel in prog.decls}
        self.facts: set[Fact] = {(rel, t) for rel, rows in facts.items() for t in rows}
        for r in prog.rules:
            if r.is_fact:
                try:
                    vals = tuple(self.matcher.value(a, {}) for a in r.head.args)
                except _Undefined:
                    continue
                self.facts.add((r.head.rel, vals))
        self.height: dict[Fact, int] = {f: 0 for f in self.facts}
        self.best: dict[Fact, _Inst] = {}

    def _instances(self, goal: Fact) -> list[_Inst]:
        rel, t = goal
        out: list[_Inst] = []
        for r in self.rules.get(rel, []):
            for b in self.matcher.instances(r, t):
                prem: list[Fact] = []
                neg: list[str] = []
                order: list[tuple[str, int]] = []
                for lit in r.body:
                    if isinstance(lit, Atom):
                        order.append(("pos", len(prem)))
                        prem.append((lit.rel, tuple(self.matcher.value(a, b) for a in lit.args)))
                    elif isinstance(lit, Negation):
                        args = ["_" if isinstance(a, Wildcard) else _val(self.matcher.value(a, b))
                                for a in lit.atom.args]
                        order.append(("neg", len(neg)))
                        neg.append(f"!{lit.atom.rel}({','.join(args)})")
                out.append(_Inst(r, goal, prem, neg, order))
        return out

    def prove(self, goal: Fact) -> int | None:
        """Minimal proof height of ``goal`` (None if it is not in the model)."""
        if goal in self.height:
            return self.height[goal]
        if not self.model.contains(*goal):
            return None
        insts: list[_Inst] = []
        users: dict[Fact, list[int]] = {}
        seen = {goal}
        todo = [goal]
        while todo:
            g = todo.pop()
            for inst in self._instances(g):
                k = len(insts)
                insts.append(inst)
                for p in set(inst.premises):
                    if p in self.height:
                        continue
                    users.setdefault(p, []).append(k)
                    if p not in seen:
                        seen.add(p)
                        todo.append(p)
        remaining = [{p for p in i.premises if p not in self.height} for i in insts]
        top = [max((self.height[p] for p in i.premises if p in self.height), default=0)
               for i in insts]
        heap = [(top[k] + 1, k) for k in range(len(insts)) if not remaining[k]]
        heapq.heapify(heap)
        while heap:
            h, k = heapq.heappop(heap)
            head = insts[k].head
            if head in self.height:
                continue
            self.height[head] = h
            self.best[head] = insts[k]
            for j in users.get(head, []):
                remaining[j].discard(head)
                top[j] = max(top[j], h)
                if not remaining[j]:
                    heapq.heappush(heap, (top[j] + 1, j))
        return self.height.get(goal)

    def tree(self, goal: Fact, depth: int) -> dict:
        text = format_tuple(*goal)
        if goal in self.facts:
            return {"tuple": text, "fact": True}
        if depth <= 0:
            return {"tuple": text, "subproof": text, "truncated": True}
        inst = self.best[goal]
        premises = []
        for kind, i in inst.order:
            if kind == "pos":
                premises.append(self.tree(inst.premises[i], depth - 1))
            else:
                premises.append({"tuple": inst.negated[i], "negated": True})
        return {"tuple": text, "height": self.height[goal], "rule": rule_info(inst.rule),
                "premises": premises}


def rule_info(r: Rule) -> dict:
    return {"id": f"{r.head.rel}.{r.rid}", "file": r.loc.file, "line": r.loc.line,
            "text": r.text}


def _val(v: str | int) -> str:
    return format_tuple("", (v,))[1:-1]


# --------------------------------------------------------------------- why-not


def why_not_rules(prog: Program, model: dict[str, set[Tuple]], goal: Fact) -> list[dict]:
    """For each rule whose head matches ``goal``: the first body literal that fails."""
    matcher = Matcher(Model(model))
    out: list[dict] = []
    for r in prog.rules_for(goal[0]):
        rn = _name_wildcards(r)
        u = matcher.unify_head(rn.head, goal[1])
        if u is None:
            continue
        b, checks = u
        entry: dict = {"rule": rule_info(r)}
        failed = None
        before: list[Binding] = [b]
        for lit, bs, after in matcher.solve_steps(rn.body, [b]):
            if not after:
                failed, before = lit, bs
                break
            before = after
        if failed is None:
            ok = [s for s in before if _checks_hold(matcher, checks, s)]
            if ok:  # cannot happen for a model the engine computed
                raise UserError(f"inconsistent model: {r.text} derives {format_tuple(*goal)}")
            entry["failed"] = {"literal": str(r.head), "file": r.loc.file, "line": r.loc.line,
                               "col": r.loc.col, "reason": "head arithmetic does not match"}
        else:
            entry["failed"] = {"literal": str(failed), "file": failed.loc.file,
                               "line": failed.loc.line, "col": failed.loc.col}
        sample = before[0] if before else b
        entry["binding"] = {k: v for k, v in sorted(sample.items()) if not k.startswith("_")}
        out.append(entry)
    return out


def _checks_hold(m: Matcher, checks, s: Binding) -> bool:
    try:
        return all(m.value(t, s) == v for t, v in checks)
    except _Undefined:
        return False


# --------------------------------------------------------------------- souffle proofs


def _constraint(node: dict) -> bool:
    """A Soufflé proof leaf that is an evaluated comparison, not an atom."""
    text = node.get("axiom", "").strip().lstrip("!")
    return bool(text) and re.match(r"^[A-Za-z_][\w.]*\s*\(", text) is None


def from_souffle(prog: Program, obj: dict, depth: int) -> dict:
    """Convert ``souffle -t explain`` JSON into our proof node shape."""
    rule_texts = {r.get("rule-number"): r.get("rule", "") for r in obj.get("rules", [])}

    def norm(text: str) -> str:
        try:
            return format_tuple(*parse_tuple(text))
        except DatalogSyntaxError:
            return text.strip()

    def conv(node: dict, d: int) -> dict:
        if "axiom" in node:
            text = node["axiom"].strip()
            if text.startswith("!"):
                return {"tuple": "!" + norm(text[1:]), "negated": True}
            if text.startswith("subproof"):
                return {"tuple": text, "subproof": text, "truncated": True}
            return {"tuple": norm(text), "fact": True}
        tup = norm(node.get("premises", ""))
        if d <= 0:
            return {"tuple": tup, "subproof": tup, "truncated": True}
        num = node.get("rule-number", "")
        rel = tup.split("(", 1)[0]
        rid = num.strip("()")
        squash = "".join(rule_texts.get(num, "").split())
        cands = prog.rules_for(rel)
        rule = next((r for r in cands if "".join(r.text.split()) == squash), None) or next(
            (r for r in cands if r.rid == rid), None)
        info = rule_info(rule) if rule else {"id": f"{rel}.{rid}", "file": None, "line": None,
                                             "text": rule_texts.get(num, "")}
        # Soufflé lists a rule's evaluated constraints ("1 = 1") among its premises; the
        # proof shape has atoms and negations only (constraints are part of the rule)
        kids = [c for c in node.get("children", []) if not _constraint(c)]
        return {"tuple": tup, "rule": info, "premises": [conv(c, d - 1) for c in kids]}

    return conv(obj["proof"], depth)


# --------------------------------------------------------------------- API


def _goal(prog: Program, tuple_text: str) -> Fact:
    rel, vals = parse_tuple(tuple_text)
    if rel not in prog.decls:
        raise UserError(f"no relation '{rel}' in the program")
    types = prog.column_types(rel)
    if len(vals) != len(types):
        raise UserError(f"relation '{rel}' has arity {len(types)}, the query has {len(vals)}")
    for v, ty in zip(vals, types, strict=True):
        if (ty == "number") != isinstance(v, int):
            raise UserError(f"query {tuple_text}: {v!r} does not fit a {ty} column of '{rel}'")
    return rel, vals


def explain(program: ProgramLike, facts: FactsLike, tuple_text: str, depth: int = 4,
            engine: str = "auto", timeout: float | None = None) -> dict:
    """Minimal-height proof tree of a tuple (see module doc for the shape)."""
    prog = load_program(program)
    prog.require_valid()
    fs = load_facts(prog, facts)
    goal = _goal(prog, tuple_text)
    which = resolve_engine(engine)
    out: dict = {"query": format_tuple(*goal), "engine": which}
    if which == "souffle":
        obj = souffle.explain_json(prog, fs, goal[0], goal[1], depth + 2, timeout)
        if obj is None:
            return {**out, "derived": False}
        return {**out, "derived": True, "proof": from_souffle(prog, obj, depth)}
    model = run_engine(prog, fs, engine=which, timeout=timeout, relations="all").relations
    ps = ProofSearch(prog, fs, model)
    h = ps.prove(goal)
    if h is None:
        return {**out, "derived": False}
    return {**out, "derived": True, "height": h, "proof": ps.tree(goal, depth)}


def why_not(program: ProgramLike, facts: FactsLike, tuple_text: str, engine: str = "auto",
            timeout: float | None = None) -> dict:
    """Why a tuple is not derived: per candidate rule, the first failing body literal."""
    prog = load_program(program)
    prog.require_valid()
    fs = load_facts(prog, facts)
    goal = _goal(prog, tuple_text)
    which = resolve_engine(engine)
    model = run_engine(prog, fs, engine=which, timeout=timeout, relations="all").relations
    out: dict = {"query": format_tuple(*goal), "engine": which}
    if goal[1] in model[goal[0]]:
        return {**out, "derived": True}
    return {**out, "derived": False, "input": goal[0] in prog.inputs,
            "rules": why_not_rules(prog, model, goal)}


# --------------------------------------------------------------------- text


def render_text(result: dict, path=None) -> str:
    """Human-readable rendering of an explain / why-not result. A node or query with a
    ``shown`` / ``shown_query`` form (ids as names, engine/explanation.py) prints that;
    ``path`` shortens rule file names (e.g. relative to the rules directory)."""
    path = path or (lambda f: f)
    lines: list[str] = []
    q = result.get("shown_query", result["query"])
    if "proof" in result:
        _render_node(result["proof"], 0, lines, path)
    elif "rules" in result:
        lines.append(f"{q} is not derived.")
        if result.get("input"):
            lines.append(f"  it is not among the input facts of '{q.split('(', 1)[0]}'")
        if not result["rules"]:
            lines.append("  no rule has a head that matches it")
        for e in result["rules"]:
            r, f = e["rule"], e["failed"]
            lines.append(f"  rule {r['id']} at {path(r['file'])}:{r['line']}: {r['text']}")
            lines.append(f"    fails at {path(f['file'])}:{f['line']}:{f['col']}: {f['literal']}")
            if e["binding"]:
                shown = e.get("shown_binding", {})
                b = ", ".join(f"{k}={shown[k] if isinstance(shown.get(k), str) and isinstance(v, int) else _val(v)}"
                              for k, v in e["binding"].items())
                lines.append(f"    with {b}")
    elif result.get("derived"):
        lines.append(f"{q} is derived.")
    else:
        lines.append(f"{q} is not derived (try --why-not).")
    return "\n".join(lines) + "\n"


def _render_node(n: dict, indent: int, lines: list[str], path) -> None:
    pad = "  " * indent
    shown = n.get("shown", n["tuple"])
    if n.get("fact"):
        lines.append(f"{pad}{shown}   [input fact]")
    elif n.get("negated"):
        lines.append(f"{pad}{shown}   [not derived]")
    elif n.get("truncated"):
        cut = f" {n['tuple']}" if shown != n["tuple"] else ""
        lines.append(f"{pad}{shown}   [...: explain it to expand{cut}]")
    else:
        r = n["rule"]
        lines.append(f"{pad}{shown}   [{r['id']} {path(r['file'])}:{r['line']}: {r['text']}]")
        for c in n["premises"]:
            _render_node(c, indent + 1, lines, path)
