"""Static checks of a program before any run (``bufferlog rules check``).

Reports, each with ``file:line:col``: syntax errors and constructs outside the portable
subset, missing include files, duplicate or undeclared relations (with the closest
declared name), arity mismatches, symbol/number type mismatches, ungrounded variables,
and negation or aggregation that cannot be stratified. Warns when a user's file replaces
a shipped one (and says so on each error it causes in the shipped files), and about an
op a user's fact names that bufferlog's frontend does not know and no input uses.
"""

from __future__ import annotations

import difflib
from collections import defaultdict, deque
from pathlib import Path

from bufferlog.core.records import value_class

from .dl_parse import (
    Aggregate,
    Atom,
    BinOp,
    Comparison,
    Literal,
    Loc,
    Neg,
    Negation,
    Num,
    Rule,
    Str,
    Term,
    Var,
    Wildcard,
)
from .program import BASE_TYPES, Program


@value_class
class Diagnostic:
    loc: Loc | None
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.loc}: " if self.loc else ""
        return f"{where}{self.severity}: {self.message}"


def check(prog: Program, inputs: list[str] | None = None) -> list[Diagnostic]:
    """All diagnostics of ``prog``, sorted by location. ``inputs``: MLIR files the rules
    are for; an op a user's fact names must be one of theirs or one the frontend knows."""
    c = _Checker(prog, inputs)
    c.run()
    return sorted(
        dict.fromkeys(c.diags),
        key=lambda d: (d.loc.file, d.loc.line, d.loc.col) if d.loc else ("", 0, 0),
    )


def _shipped_root() -> Path:
    from .program import SHIPPED_RULES

    return Path(SHIPPED_RULES).resolve()


def _is_shipped(file: str | Path) -> bool:
    try:
        Path(file).resolve().relative_to(_shipped_root())
        return True
    except (ValueError, OSError):
        return False


def replacements(prog: Program) -> dict[str, Path]:
    """Shipped rule files (by their path relative to the shipped rules directory) that a
    user's file of the same name replaces, with that file."""
    root = _shipped_root()
    shipped: dict[str, str] = {}
    for f in sorted(root.rglob("*.dl")):
        shipped.setdefault(f.name, str(f.relative_to(root)))
    out: dict[str, Path] = {}
    for f in prog.files:
        if not _is_shipped(f) and Path(f).name in shipped:
            out[shipped[Path(f).name]] = Path(f)
    return out


def _declared_in(path: Path) -> set[str]:
    """The relations a rule file declares (a shipped file a user's replaced)."""
    from .dl_parse import Decl, parse_source

    try:
        items = parse_source(path.read_text(encoding="utf-8"), str(path))
    except Exception:  # noqa: BLE001 - a shipped file always parses; be safe anyway
        return set()
    return {it.name for it in items if isinstance(it, Decl)}


class _Checker:
    def __init__(self, prog: Program, inputs: list[str] | None = None):
        self.prog = prog
        self.inputs = inputs
        self.diags: list[Diagnostic] = []
        self.replaced = replacements(prog)
        self._lost: dict[str, tuple[str, Path]] | None = None  # relation -> (shipped, user file)

    def err(self, loc: Loc | None, msg: str) -> None:
        if loc is not None and self.replaced:
            msg += self.broken_by(msg, _is_shipped(loc.file))
        self.diags.append(Diagnostic(loc, msg))

    def warn(self, loc: Loc | None, msg: str) -> None:
        self.diags.append(Diagnostic(loc, msg, "warning"))

    def lost(self) -> dict[str, tuple[str, Path]]:
        """Relations a replaced shipped file declared that nothing declares now: relation
        -> (the shipped file, the user's file replacing it)."""
        if self._lost is None:
            root = _shipped_root()
            self._lost = {}
            for rel_path, user in self.replaced.items():
                for name in _declared_in(root / rel_path) - set(self.prog.decls):
                    self._lost[name] = (rel_path, user)
        return self._lost

    def broken_by(self, msg: str, in_shipped: bool) -> str:
        """What an error owes to a user's file that replaced a shipped one: the relation
        the replaced file declared; for any other error in a shipped file, the
        replacement."""
        for name, (rel_path, user) in self.lost().items():
            if f"relation '{name}' " in msg:
                return (f" (the shipped rules/{rel_path} declares it; your {user} replaces "
                        "that file, because it has the same name)")
        if not in_shipped:
            return ""
        files = ", ".join(f"rules/{k} by your {v}" for k, v in self.replaced.items())
        return f" (in shipped rules; replaced: {files})"

    def run(self) -> None:
        p = self.prog
        for rel_path, user in self.replaced.items():
            self.warn(Loc(str(user), 1, 1),
                      f"this file replaces the shipped rules/{rel_path} (same name): the "
                      "shipped file's declarations and rules are not loaded; rename it to add "
                      "to the shipped rules instead")
        for e in p.errors:
            self.err(e.loc if isinstance(e.loc, Loc) else None, e.message)
        for d in p.duplicate_decls:
            first = p.decls[d.name]
            self.err(d.loc, f"relation '{d.name}' is already declared at {first.loc}")
        for td in p.types.values():
            if p.root_type(td.name) is None:
                self.err(td.loc, f"type '{td.name}' must derive from symbol or number "
                                 f"(base '{td.base}' is unknown or outside the subset)")
        for d in p.decls.values():
            for attr, ty in d.attrs:
                if ty not in BASE_TYPES and ty not in p.types:
                    self.err(d.loc, f"attribute '{attr}' of '{d.name}' has unknown type '{ty}'")
        for dr in p.directives:
            if dr.rel not in p.decls:
                self.err(dr.loc, f".{dr.kind} of undeclared relation '{dr.rel}'")
        for r in p.rules:
            self.check_rule(r)
        self.check_strata()
        self.check_op_names()

    # ------------------------------------------------------------- op names in facts
    def check_op_names(self) -> None:
        """An op a user's fact names (an ``OpName`` column, e.g. ``sem_known("my.acum")``)
        that the frontend does not know and no input uses: probably a misspelling, which
        would leave the real op unknown to the analysis without a word."""
        p = self.prog
        used: dict[str, str] = {}  # op name -> an input file using it
        for f in self.inputs or ():
            for name in _ops_in(f):
                used.setdefault(name, f)
        known = _frontend_ops() | {n for r in p.rules if r.is_fact and _is_shipped(r.loc.file)
                                   for n in self.op_args(r)}
        seen: set[str] = set()
        for r in p.rules:
            if not r.is_fact or _is_shipped(r.loc.file):
                continue
            for name, loc in self.op_args(r, with_loc=True):
                if name in known or name in used or name in seen:
                    continue
                seen.add(name)  # once per op: at its first fact
                close = difflib.get_close_matches(name, [*used, *sorted(known)], n=1, cutoff=0.75)
                hint = ""
                if close:
                    where = f", used in {used[close[0]]}" if close[0] in used else ""
                    hint = f"; did you mean '{close[0]}'{where}?"
                why = ("no input file given uses it (rules check --input FILE.mlir checks "
                       "against yours)") if not self.inputs else "no input file uses it"
                self.warn(loc, f"op '{name}' is not an op bufferlog's frontend knows, and "
                               f"{why}: the analysis will not connect this fact to any op{hint}")

    def op_args(self, r: Rule, with_loc: bool = False) -> list:
        d = self.prog.decls.get(r.head.rel)
        if d is None or len(d.attrs) != len(r.head.args):
            return []
        out = []
        for (_, ty), t in zip(d.attrs, r.head.args, strict=True):
            if ty == "OpName" and isinstance(t, Str):
                out.append((t.value, t.loc) if with_loc else t.value)
        return out

    # ------------------------------------------------------------- per rule
    def check_rule(self, r: Rule) -> None:
        atoms_ok = True
        for a, _neg in _atoms(r):
            atoms_ok &= self.check_atom(a)
        if atoms_ok:
            self.check_types(r)
        self.check_grounded(r)

    def check_atom(self, a: Atom) -> bool:
        d = self.prog.decls.get(a.rel)
        if d is None:
            close = [] if a.rel in self.lost() else difflib.get_close_matches(
                a.rel, list(self.prog.decls), n=1, cutoff=0.8)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            self.err(a.loc, f"relation '{a.rel}' is not declared{hint}")
            return False
        if len(a.args) != len(d.attrs):
            self.err(a.loc, f"relation '{a.rel}' has arity {len(d.attrs)} (declared at {d.loc}), "
                            f"used here with {len(a.args)} argument(s)")
            return False
        return True

    def check_types(self, r: Rule) -> None:
        env: dict[str, tuple[str, Loc]] = {}

        def unify(v: Var, ty: str) -> None:
            old = env.get(v.name)
            if old is None:
                env[v.name] = (ty, v.loc)
            elif old[0] != ty:
                self.err(v.loc, f"variable '{v.name}' is used as {ty} here but as {old[0]} at {old[1]}")

        # pass 1: attribute positions fix variable types and check constants
        for a, _ in _atoms(r):
            for (attr, _), t, ty in zip(self.prog.decls[a.rel].attrs, a.args,
                                        self.prog.column_types(a.rel), strict=True):
                if isinstance(t, Var):
                    unify(t, ty)
                elif (kind := self.term_kind(t, env)) is not None and kind != ty:
                    self.err(t.loc, f"{kind} value {t} in {ty} attribute '{attr}' of '{a.rel}'")

        # pass 2: expressions and comparisons
        for t in _all_terms(r):
            self.check_expr(t, env)
        for c in _comparisons(r):
            lk, rk = self.term_kind(c.left, env), self.term_kind(c.right, env)
            if lk and rk and lk != rk:
                self.err(c.loc, f"comparison '{c}' between {lk} and {rk}")
            elif lk is None and rk and isinstance(c.left, Var):
                unify(c.left, rk)
            elif rk is None and lk and isinstance(c.right, Var):
                unify(c.right, lk)

    def term_kind(self, t: Term, env: dict[str, tuple[str, Loc]]) -> str | None:
        if isinstance(t, Str):
            return "symbol"
        if isinstance(t, Num | BinOp | Neg | Aggregate):
            return "number"
        if isinstance(t, Var) and t.name in env:
            return env[t.name][0]
        return None

    def check_expr(self, t: Term, env: dict[str, tuple[str, Loc]]) -> None:
        if isinstance(t, BinOp | Neg):
            for sub in (t.left, t.right) if isinstance(t, BinOp) else (t.operand,):
                if self.term_kind(sub, env) == "symbol":
                    self.err(sub.loc, f"arithmetic on symbol {sub}")
                self.check_expr(sub, env)
        elif isinstance(t, Aggregate) and t.target is not None:
            if self.term_kind(t.target, env) == "symbol":
                self.err(t.target.loc, f"{t.kind} over symbol {t.target}")
            self.check_expr(t.target, env)

    def check_grounded(self, r: Rule) -> None:
        for t in r.head.args:
            if isinstance(t, Wildcard):
                self.err(t.loc, f"wildcard '_' in the head of a rule for '{r.head.rel}'")
        bound = _bound_vars(r.body, set())
        reported: set[str] = set()

        def need(t: Term, scope: set[str], where: str) -> None:
            for v in _vars(t):
                if v.name not in scope and v.name not in reported:
                    reported.add(v.name)
                    self.err(v.loc, f"ungrounded variable '{v.name}' in {where}")

        for t in r.head.args:
            need(t, bound, "the head" if r.body else "a fact")
        self.check_body_grounded(r.body, bound, need)

    def check_body_grounded(self, body, bound: set[str], need) -> None:
        for lit in body:
            if isinstance(lit, Negation):
                for t in lit.atom.args:
                    need(t, bound, f"negation '{lit}'")
            elif isinstance(lit, Comparison):
                for side in (lit.left, lit.right):
                    if isinstance(side, Wildcard):
                        self.err(side.loc, f"wildcard '_' in comparison '{lit}'")
                    need(side, bound, f"comparison '{lit}'")
            else:
                for t in lit.args:
                    if not isinstance(t, Var | Wildcard):
                        need(t, bound, f"atom '{lit}'")
            for agg in _aggregates(lit):
                inner = _bound_vars(agg.body, bound)
                if agg.target is not None:
                    need(agg.target, inner, f"the {agg.kind} target")
                self.check_body_grounded(agg.body, inner, need)

    # ------------------------------------------------------------- strata
    def check_strata(self) -> None:
        graph: dict[str, set[str]] = defaultdict(set)
        negative: list[tuple[str, str, Literal, str]] = []  # head, body rel, literal, how
        for r in self.prog.rules:
            h = r.head.rel
            for lit in r.body:
                if isinstance(lit, Atom):
                    graph[h].add(lit.rel)
                elif isinstance(lit, Negation):
                    graph[h].add(lit.atom.rel)
                    negative.append((h, lit.atom.rel, lit, "negation"))
                for agg in _aggregates(lit):
                    for a, _ in _body_atoms(agg.body):
                        graph[h].add(a.rel)
                        negative.append((h, a.rel, a, f"{agg.kind} aggregate"))
        for h, b, lit, how in negative:
            path = _path(graph, b, h)
            if path is not None:
                cycle = " -> ".join([h, *path])
                self.err(lit.loc, f"{how} over '{b}' in a rule for '{h}' cannot be stratified "
                                  f"(cycle {cycle})")


# ----------------------------------------------------------------- helpers


def _frontend_ops() -> set[str]:
    """The ops the frontend parses and prints in custom form."""
    from bufferlog.frontend.dialects import PRINTERS, load_all

    load_all()
    return set(PRINTERS)


def _ops_in(path: str) -> set[str]:
    """The op names an MLIR file uses (custom and generic form), read from its text."""
    import re

    from bufferlog.core import UserError

    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        raise UserError(f"--input: cannot read {path}: {e.strerror or e}") from None
    ops = set(re.findall(r'^\s*(?:%[^=\n]*=\s*)?"?([A-Za-z_][\w$]*\.[\w$.]+)"?', text, re.M))
    ops |= set(re.findall(r'=\s*"?([A-Za-z_][\w$]*\.[\w$.]+)"?[ (]', text))
    return ops


def _path(graph: dict[str, set[str]], src: str, dst: str) -> list[str] | None:
    """Shortest dependency path src -> ... -> dst, or None."""
    prev: dict[str, str | None] = {src: None}
    q = deque([src])
    while q:
        n = q.popleft()
        if n == dst:
            out = [n]
            while (p := prev[out[-1]]) is not None:
                out.append(p)
            return out[::-1]
        for m in sorted(graph.get(n, ())):
            if m not in prev:
                prev[m] = n
                q.append(m)
    return None


def _vars(t: Term) -> list[Var]:
    if isinstance(t, Var):
        return [t]
    if isinstance(t, BinOp):
        return _vars(t.left) + _vars(t.right)
    if isinstance(t, Neg):
        return _vars(t.operand)
    return []  # constants, wildcards; aggregates are checked on their own


def _bound_vars(body, outer: set[str]) -> set[str]:
    """Variables bound by a body: positive atom arguments, then ``x = e`` chains."""
    bound = set(outer)
    for lit in body:
        if isinstance(lit, Atom):
            bound.update(t.name for t in lit.args if isinstance(t, Var))
    changed = True
    while changed:
        changed = False
        for lit in body:
            if isinstance(lit, Comparison) and lit.op == "=":
                for a, b in ((lit.left, lit.right), (lit.right, lit.left)):
                    if (isinstance(a, Var) and a.name not in bound
                            and all(v.name in bound for v in _vars(b))):
                        bound.add(a.name)
                        changed = True
    return bound


def _aggregates(lit: Literal) -> list[Aggregate]:
    terms = lit.args if isinstance(lit, Atom) else lit.atom.args if isinstance(lit, Negation) \
        else (lit.left, lit.right)
    out: list[Aggregate] = []

    def walk(t: Term) -> None:
        if isinstance(t, Aggregate):
            out.append(t)
        elif isinstance(t, BinOp):
            walk(t.left)
            walk(t.right)
        elif isinstance(t, Neg):
            walk(t.operand)

    for t in terms:
        walk(t)
    return out


def _body_atoms(body) -> list[tuple[Atom, bool]]:
    out: list[tuple[Atom, bool]] = []
    for lit in body:
        if isinstance(lit, Atom):
            out.append((lit, False))
        elif isinstance(lit, Negation):
            out.append((lit.atom, True))
        for agg in _aggregates(lit):
            out.extend(_body_atoms(agg.body))
    return out


def _atoms(r: Rule) -> list[tuple[Atom, bool]]:
    """Head and every body atom (including inside aggregates), with a negated flag."""
    return [(r.head, False), *_body_atoms(r.body)]


def _all_terms(r: Rule) -> list[Term]:
    out: list[Term] = list(r.head.args)

    def body_terms(body) -> None:
        for lit in body:
            if isinstance(lit, Atom):
                out.extend(lit.args)
            elif isinstance(lit, Negation):
                out.extend(lit.atom.args)
            else:
                out.extend((lit.left, lit.right))
            for agg in _aggregates(lit):
                body_terms(agg.body)

    body_terms(r.body)
    return out


def _comparisons(r: Rule) -> list[Comparison]:
    out: list[Comparison] = []

    def walk(body) -> None:
        for lit in body:
            if isinstance(lit, Comparison):
                out.append(lit)
            for agg in _aggregates(lit):
                walk(agg.body)

    walk(r.body)
    return out
