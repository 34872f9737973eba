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
from collections.abc import Iterable

from bufferlog.core import UserError
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
        self.lines = [_RuleTranslator(self, r).text() for r in prog.rules]  # line k: rule k
        from .check import _body_atoms

        #: per rule: its head, the relations its body needs non-empty (positive atoms
        #: outside aggregates), and every relation it reads
        self.shape = [(r.head.rel, frozenset(lit.rel for lit in r.body if isinstance(lit, Atom)),
                       frozenset(a.rel for a, _ in _body_atoms(r.body))) for r in prog.rules]
        self._slices: dict[tuple[frozenset, frozenset], tuple[str, list[int], frozenset]] = {}

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def relevant(self, present: frozenset[str], wanted: frozenset[str]
                 ) -> tuple[str, list[int], frozenset[str]]:
        """The rules that can matter: clingo grounds every rule it is given, even one whose
        body can never hold (about 30 ms for the analysis's 539 rules on no facts at all).
        A rule is kept when every positive atom of its body (outside aggregates: a
        ``count`` of nothing is 0) is of a relation that has facts (``present``) or can be
        derived, and its head is ``wanted`` or read by a kept rule. Dropping the others
        changes no wanted tuple: a dropped rule never fires, or its head reaches no wanted
        relation. Returns the text, the kept rules' indices (line k of the text is rule
        ``kept[k-1]``) and the relations whose facts the kept rules read."""
        key = (present, wanted)
        hit = self._slices.get(key)
        if hit is not None:
            return hit
        possible = set(present)
        grew = True
        while grew:
            grew = False
            for head, needs, _ in self.shape:
                if head not in possible and needs <= possible:
                    possible.add(head)
                    grew = True
        can_fire = [i for i, (_, needs, _) in enumerate(self.shape) if needs <= possible]
        needed = set(wanted)
        grew = True
        while grew:
            grew = False
            for i in can_fire:
                head, _, reads = self.shape[i]
                if head in needed and not reads <= needed:
                    needed |= reads
                    grew = True
        kept = [i for i in can_fire if self.shape[i][0] in needed]
        text = "".join(self.lines[i] + "\n" for i in kept)
        if len(self._slices) > 64:
            self._slices.clear()
        hit = self._slices[key] = (text, kept, frozenset(needed))
        return hit

    def fact_text(self, facts: Facts) -> str:
        """Validated facts as clingo facts, one ``%``-template per relation (the text is
        what clingo takes fastest: its backend API needs a Python call per symbol, about
        twice as slow on a 115,000-fact program)."""
        parts: list[str] = []
        for rel, rows in facts.items():
            if not rows:
                continue
            if type(rows) is Validated and rows.engine_text is not None:
                parts.append(rows.engine_text)
                continue
            p = self.pred[rel]
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
            text = "".join([line % row for row in rows])
            if type(facts[rel]) is Validated:  # the same rows come again in a session's next run
                facts[rel].engine_text = text
            parts.append(text)
        return "".join(parts)


class _RuleTranslator:
    def __init__(self, tr: Translation, rule: Rule):
        self.tr = tr
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
        p = self.tr.pred[a.rel]
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
                p = self.tr.pred[lit.rel]
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


_ARG = re.compile(r'"((?:[^"\\]|\\.)*)"|(-?[0-9]+)')
_UNESCAPE = re.compile(r"\\(.)")


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


def _shown_atoms(model) -> list[str]:
    """The text of every shown atom of ``model``. ``str(symbol)`` per atom allocates two
    cffi buffers and wraps each call; this loop calls clingo's C API with one reused
    buffer (about 3x faster: 0.16 s instead of 0.44 s for 30,000 atoms). Falls back to the
    public API if this clingo lays out its internals differently."""
    try:
        from clingo._internal import _ffi, _lib

        rep, show = model._rep, _lib.clingo_show_type_shown
    except (ImportError, AttributeError):
        return [str(s) for s in model.symbols(shown=True)]
    size = _ffi.new("size_t*")
    if not _lib.clingo_model_symbols_size(rep, show, size):
        return [str(s) for s in model.symbols(shown=True)]
    syms = _ffi.new("clingo_symbol_t[]", size[0])
    if not _lib.clingo_model_symbols(rep, show, syms, size[0]):
        return [str(s) for s in model.symbols(shown=True)]
    to_size, to_str = _lib.clingo_symbol_to_string_size, _lib.clingo_symbol_to_string
    unpack = _ffi.unpack
    cap = 256
    buf = _ffi.new("char[]", cap)
    parts: list[bytes] = []
    for sym in syms:
        if not to_size(sym, size):
            raise EngineError("embedded engine (clingo): cannot print an atom of the model")
        k = size[0]
        if k > cap:
            cap = k
            buf = _ffi.new("char[]", cap)
        to_str(sym, buf, k)
        parts.append(unpack(buf, k - 1))  # without the terminating NUL
    # one decode for all: clingo escapes newlines inside strings, so lines are atoms
    return b"\n".join(parts).decode().split("\n") if parts else []


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


def evaluate(prog: Program, facts: Facts, relations: Iterable[str]) -> dict[str, set[Tuple]]:
    """Evaluate in this process; return the tuples of ``relations``. ``--timing`` shows
    its three parts: the rules and facts parsed by clingo, grounding (which decides a
    stratified program), and the wanted tuples read back."""
    import clingo

    relations = list(relations)
    tr = _translation(prog)
    present = frozenset(r for r, rows in facts.items() if rows and r in tr.pred)
    text, kept, needed = tr.relevant(present, frozenset(relations))
    messages: list[str] = []
    ctl = clingo.Control(["--warn=none"], logger=lambda code, msg: messages.append(msg))
    with phase("clingo input"):
        try:
            ctl.add("base", [], text)
        except RuntimeError:
            raise EngineError(_explain_clingo_error(tr, kept, messages)) from None
        # facts no kept rule reads (e.g. the ops' text and locations) are left out
        ctl.add("base", [], tr.fact_text({r: facts[r] for r in facts if r in needed}))
        ctl.add("base", [], "".join(f"#show {tr.pred[r]}/{len(prog.decls[r].attrs)}.\n"
                                    for r in relations))
    with phase("clingo ground"):
        try:
            ctl.ground([("base", [])])
        except RuntimeError:
            raise EngineError(_explain_clingo_error(tr, kept, messages)) from None
    out: dict[str, set[Tuple]] = {r: set() for r in relations}
    wanted = {tr.pred[r]: out[r] for r in relations}  # predicate -> its tuples
    models = 0
    with phase("clingo output"), ctl.solve(yield_=True) as handle:
        for model in handle:  # stratified: one model, which the grounder already decided
            models += 1
            for text in _shown_atoms(model):
                i = text.find("(")
                wanted[text if i < 0 else text[:i]].add(_args(text))
            break
    if models == 0:
        raise EngineError("embedded engine (clingo): the program has no model "
                          "(is its negation stratified? run `bufferlog rules check`)")
    return out


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
