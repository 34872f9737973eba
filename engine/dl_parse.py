"""Parser for the portable Soufflé subset used by ``rules/*.dl``.

The subset (DESIGN.md §4): ``.decl`` with ``symbol``/``number`` attributes, ``.type X <:
symbol`` (or ``= number``), plain rules (several heads allowed), stratified negation,
arithmetic ``+ - * / %`` with unary minus, comparisons ``= != < <= > >=``, the
``count``/``sum``/``min``/``max`` aggregates, ``.input``/``.output``/``.printsize`` and
``#include "file"``.  Records, ADTs, ``eqrel``, subsumption, choice domains, functors,
disjunction and components are rejected with a located error.

String literals take C's simple escapes (``\\" \\\\ \\' \\t \\n \\r \\a \\b \\f \\v``), as
Soufflé ≥ 2.1 does.  ``/** ... */`` immediately before a ``.decl`` is its doc comment.

Every AST node carries a :class:`Loc`; rules keep their source text so provenance and
``rules check`` can point at them.
"""

from __future__ import annotations

import re

from bufferlog.core import UserError
from bufferlog.core.records import field, record, value_class
from bufferlog.core.regex import compile as compile_regex


@value_class
class Loc:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class DatalogSyntaxError(UserError):
    """A syntax error (or use of a construct outside the portable subset)."""


# ---------------------------------------------------------------------------- AST


@value_class
class Var:
    name: str
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return self.name


@value_class
class Wildcard:
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return "_"


@value_class
class Str:
    value: str
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return quote(self.value)


@value_class
class Num:
    value: int
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return str(self.value)


@value_class
class BinOp:
    op: str  # one of + - * / %
    left: Term
    right: Term
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return f"({self.left} {self.op} {self.right})"


@value_class
class Neg:
    operand: Term
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return f"-({self.operand})"


@value_class
class Aggregate:
    kind: str  # count | sum | min | max
    target: Term | None  # None for count
    body: tuple[Literal, ...]
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        tgt = f" {self.target}" if self.target is not None else ""
        return f"{self.kind}{tgt} : {{ {', '.join(map(str, self.body))} }}"


Term = Var | Wildcard | Str | Num | BinOp | Neg | Aggregate


@value_class
class Atom:
    rel: str
    args: tuple[Term, ...]
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return f"{self.rel}({', '.join(map(str, self.args))})"


@value_class
class Negation:
    atom: Atom
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return f"!{self.atom}"


@value_class
class Comparison:
    op: str  # = != < <= > >=
    left: Term
    right: Term
    loc: Loc = field(compare=False)

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


Literal = Atom | Negation | Comparison


@record
class Rule:
    """One clause with a single head (multi-head clauses are split).  ``rid`` numbers the
    rules (clauses with a body) of each head relation R1, R2, ... in program order, as
    Soufflé's provenance does; facts written in the program get ``rid`` ``None``."""

    head: Atom
    body: tuple[Literal, ...]
    loc: Loc
    text: str
    rid: str | None = None

    @property
    def is_fact(self) -> bool:
        return not self.body


@record
class Decl:
    name: str
    attrs: list[tuple[str, str]]  # (attribute name, type name)
    loc: Loc
    doc: str = ""


@record
class TypeDecl:
    name: str
    base: str
    loc: Loc


@record
class Directive:
    kind: str  # input | output | printsize
    rel: str
    loc: Loc


@record
class Include:
    path: str
    loc: Loc


Item = Decl | TypeDecl | Directive | Rule | Include


# ---------------------------------------------------------------------------- lexer

_DIRECTIVES = {"decl", "type", "input", "output", "printsize"}
_UNSUPPORTED_DIRECTIVES = {
    "comp", "init", "functor", "pragma", "plan", "limitsize", "override", "lattice",
    "number_type", "symbol_type", "once",
}
_ESCAPES = {'"': '"', "\\": "\\", "'": "'", "t": "\t", "n": "\n", "r": "\r", "a": "\a",
            "b": "\b", "f": "\f", "v": "\v"}

_TOKEN_RE = compile_regex(
    r"""
    (?P<ws>[ \t\r\f\v]+|\n)
  | (?P<doc>/\*\*(?!/).*?\*/)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<badcomment>/\*)
  | (?P<include>\#[ \t]*include\b)
  | (?P<hash>\#[ \t]*[A-Za-z_]+)
  | (?P<directive>\.[A-Za-z_]+)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<float>[0-9]+\.[0-9]+)
  | (?P<number>0[xX][0-9A-Fa-f]+|0[bB][01]+|[0-9]+)
  | (?P<ident>[A-Za-z_?][A-Za-z0-9_?]*)
  | (?P<punct>:-|<:|!=|<=|>=|[(),.!=<>+\-*/%:{};^\[\]$@|&])
    """,
    re.VERBOSE | re.DOTALL,
)


@record
class Tok:
    kind: str
    text: str
    loc: Loc
    pos: int  # offset in the source
    doc: str = ""  # doc comment immediately preceding this token


def _doc_text(raw: str) -> str:
    body = raw[3:-2]
    lines = [re.sub(r"^\s*\*?\s*", "", ln).rstrip() for ln in body.splitlines()]
    return "\n".join(lines).strip()


def tokenize(src: str, file: str) -> list[Tok]:
    toks: list[Tok] = []
    pos, line, line_start = 0, 1, 0
    pending_doc = ""
    while pos < len(src):
        m = _TOKEN_RE.match(src, pos)
        loc = Loc(file, line, pos - line_start + 1)
        if not m:
            ch = src[pos]
            if ch == '"':
                raise DatalogSyntaxError("unterminated string literal", loc)
            raise DatalogSyntaxError(f"unexpected character {ch!r}", loc)
        kind, text = m.lastgroup, m.group()
        assert kind is not None
        if kind == "badcomment":
            raise DatalogSyntaxError("unterminated comment", loc)
        if kind == "directive" and text[1:] not in _DIRECTIVES | _UNSUPPORTED_DIRECTIVES:
            # a `.` ending a clause directly followed by a word, e.g. `a(1).b(2).`
            toks.append(Tok("punct", ".", loc, pos))
            pos += 1
            continue
        if kind == "doc":
            pending_doc = _doc_text(text)
        elif kind not in ("ws", "comment"):
            toks.append(Tok(kind, text, loc, pos, pending_doc))
            pending_doc = ""
        nl = text.count("\n")
        if nl:
            line += nl
            line_start = pos + text.rindex("\n") + 1
        pos = m.end()
    toks.append(Tok("eof", "", Loc(file, line, pos - line_start + 1), pos))
    return toks


def unescape(lit: str, loc: Loc) -> str:
    out: list[str] = []
    i = 1
    while i < len(lit) - 1:
        c = lit[i]
        if c == "\\":
            nxt = lit[i + 1]
            if nxt not in _ESCAPES:
                raise DatalogSyntaxError(f"unknown escape sequence \\{nxt}", Loc(loc.file, loc.line, loc.col + i))
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


_QUOTE = {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def quote(s: str) -> str:
    """A Soufflé string literal denoting ``s`` (inverse of :func:`unescape`)."""
    return '"' + "".join(_QUOTE.get(c, c) for c in s) + '"'


# ---------------------------------------------------------------------------- parser

_CMP = {"=", "!=", "<", "<=", ">", ">="}
_AGGS = {"count", "sum", "min", "max"}


class Parser:
    """Recursive descent over the token list of one file."""

    def __init__(self, src: str, file: str):
        self.src = src
        self.file = file
        self.toks = tokenize(src, file)
        self.i = 0

    # -- helpers
    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def at(self, text: str) -> bool:
        t = self.tok
        return t.kind in ("punct", "ident", "directive") and t.text == text

    def next(self) -> Tok:
        t = self.tok
        self.i += 1
        return t

    def expect(self, text: str, what: str | None = None) -> Tok:
        if not self.at(text):
            self.fail(f"expected {what or repr(text)}")
        return self.next()

    def expect_ident(self, what: str) -> Tok:
        if self.tok.kind != "ident":
            self.fail(f"expected {what}")
        return self.next()

    def fail(self, msg: str, tok: Tok | None = None) -> None:
        t = tok or self.tok
        found = "end of file" if t.kind == "eof" else repr(t.text)
        raise DatalogSyntaxError(f"{msg}, found {found}", t.loc)

    def unsupported(self, what: str, tok: Tok | None = None) -> None:
        t = tok or self.tok
        raise DatalogSyntaxError(f"{what} is not in the portable Soufflé subset", t.loc)

    # -- items
    def parse(self) -> list[Item]:
        items: list[Item] = []
        while self.tok.kind != "eof":
            t = self.tok
            if t.kind == "include":
                self.next()
                if self.tok.kind != "string":
                    self.fail('expected a file name in quotes after #include')
                items.append(Include(unescape(self.next().text, t.loc), t.loc))
            elif t.kind == "hash":
                self.unsupported(f"preprocessor directive {t.text!r}")
            elif t.kind == "directive":
                items.extend(self.directive())
            else:
                items.extend(self.clause())
        return items

    def directive(self) -> list[Item]:
        t = self.next()
        name = t.text[1:]
        if name in _UNSUPPORTED_DIRECTIVES:
            self.unsupported(f"directive {t.text!r}", t)
        if name == "decl":
            return [self.decl(t)]
        if name == "type":
            n = self.expect_ident("a type name")
            if self.at("<:") or self.at("="):
                self.next()
            else:
                self.fail("expected '<:' or '=' in .type")
            if self.tok.kind != "ident":
                self.unsupported("a record, ADT or union type")
            base = self.next()
            if self.at("|"):
                self.unsupported("a union type")
            return [TypeDecl(n.text, base.text, n.loc)]
        # .input / .output / .printsize: one or more relation names, optional (params)
        out: list[Item] = []
        while True:
            n = self.expect_ident("a relation name")
            out.append(Directive(name, n.text, n.loc))
            if not self.at(","):
                break
            self.next()
        if self.at("("):
            self.unsupported("I/O parameters", self.tok)
        return out

    def decl(self, start: Tok) -> Decl:
        n = self.expect_ident("a relation name")
        self.expect("(")
        attrs: list[tuple[str, str]] = []
        while not self.at(")"):
            a = self.expect_ident("an attribute name")
            self.expect(":")
            ty = self.expect_ident("a type name")
            attrs.append((a.text, ty.text))
            if not self.at(")"):
                self.expect(",", "',' or ')'")
        self.next()
        while self.tok.kind == "ident" and self.tok.loc.line == n.loc.line:
            q = self.next()
            if q.text in ("eqrel", "choice", "choice_domain") or q.text.startswith("choice"):
                self.unsupported(f"relation qualifier {q.text!r}", q)
            if q.text not in ("brie", "btree", "btree_delete", "inline", "magic", "no_magic",
                              "no_inline", "overridable"):
                self.fail("unknown relation qualifier", q)
        if self.at("\\"):
            self.unsupported("subsumption")
        return Decl(n.text, attrs, n.loc, start.doc)

    def clause(self) -> list[Rule]:
        start = self.tok
        heads = [self.atom()]
        while self.at(","):
            self.next()
            heads.append(self.atom())
        body: list[Literal] = []
        if self.at(":-"):
            self.next()
            body = self.body(("." ,))
        elif self.at("<="):
            self.unsupported("subsumption")
        end = self.expect(".", "'.' at the end of the clause")
        text = " ".join(self.src[start.pos : end.pos + 1].split())
        return [Rule(h, tuple(body), h.loc, text) for h in heads]

    def body(self, stop: tuple[str, ...]) -> list[Literal]:
        lits = [self.literal()]
        while self.at(","):
            self.next()
            lits.append(self.literal())
        if self.at(";"):
            self.unsupported("disjunction ';'")
        if not any(self.at(s) for s in stop):
            self.fail(f"expected ',' or {' or '.join(repr(s) for s in stop)}")
        return lits

    def literal(self) -> Literal:
        t = self.tok
        if self.at("!"):
            self.next()
            if self.at("("):
                self.unsupported("negation of a parenthesised body")
            return Negation(self.atom(), t.loc)
        if t.kind == "ident" and self.peek().text == "(" and t.text not in _AGGS:
            return self.atom()
        left = self.term()
        if not (self.tok.kind == "punct" and self.tok.text in _CMP):
            self.fail("expected a comparison operator")
        op = self.next().text
        right = self.term()
        return Comparison(op, left, right, t.loc)

    def atom(self) -> Atom:
        n = self.expect_ident("a relation name")
        self.expect("(")
        args: list[Term] = []
        while not self.at(")"):
            args.append(self.term())
            if not self.at(")"):
                self.expect(",", "',' or ')'")
        self.next()
        return Atom(n.text, tuple(args), n.loc)

    # -- terms (precedence: unary minus > * / % > + -)
    def term(self) -> Term:
        left = self.mul()
        while self.tok.kind == "punct" and self.tok.text in ("+", "-"):
            op = self.next()
            left = BinOp(op.text, left, self.mul(), op.loc)
        return left

    def mul(self) -> Term:
        left = self.unary()
        while self.tok.kind == "punct" and self.tok.text in ("*", "/", "%"):
            op = self.next()
            left = BinOp(op.text, left, self.unary(), op.loc)
        if self.tok.kind == "punct" and self.tok.text in ("^", "&", "|"):
            self.unsupported(f"operator {self.tok.text!r}")
        return left

    def unary(self) -> Term:
        t = self.tok
        if self.at("-"):
            self.next()
            inner = self.unary()
            if isinstance(inner, Num):
                return Num(-inner.value, t.loc)
            return Neg(inner, t.loc)
        return self.primary()

    def primary(self) -> Term:
        t = self.tok
        if t.kind == "number":
            self.next()
            return Num(int(t.text, 0), t.loc)
        if t.kind == "float":
            self.unsupported("float literal", t)
        if t.kind == "string":
            self.next()
            return Str(unescape(t.text, t.loc), t.loc)
        if t.kind == "ident":
            if t.text in _AGGS and self.peek().text != "(" or (
                t.text in ("min", "max", "sum") and self._paren_then_colon()
            ):
                return self.aggregate()
            if t.text in ("mean", "range", "nil", "as", "autoinc") or self.peek().text == "(":
                self.unsupported(f"functor or construct {t.text!r}", t)
            self.next()
            return Wildcard(t.loc) if t.text == "_" else Var(t.text, t.loc)
        if self.at("("):
            self.next()
            inner = self.term()
            self.expect(")")
            return inner
        if t.kind == "punct" and t.text in ("[", "$", "@"):
            self.unsupported({"[": "a record", "$": "an ADT constructor", "@": "a user functor"}[t.text])
        self.fail("expected a term")
        raise AssertionError  # unreachable

    def _paren_then_colon(self) -> bool:
        """``min (x+1) : {...}``: an aggregate whose target is parenthesised."""
        if self.peek().text != "(":
            return False
        depth, k = 0, 1
        while True:
            t = self.peek(k)
            if t.kind == "eof":
                return False
            if t.text == "(":
                depth += 1
            elif t.text == ")":
                depth -= 1
                if depth == 0:
                    return self.peek(k + 1).text == ":"
            k += 1

    def aggregate(self) -> Aggregate:
        kw = self.next()
        target = None if kw.text == "count" else self.term()
        self.expect(":", "':' after the aggregate")
        if self.at("{"):
            self.next()
            body = self.body(("}",))
            self.next()
        else:
            body = [self.atom()]
        for lit in body:
            if any(_contains_aggregate(t) for t in _literal_terms(lit)):
                self.unsupported("a nested aggregate", kw)
        return Aggregate(kw.text, target, tuple(body), kw.loc)


def _literal_terms(lit: Literal) -> tuple[Term, ...]:
    if isinstance(lit, Atom):
        return lit.args
    if isinstance(lit, Negation):
        return lit.atom.args
    return (lit.left, lit.right)


def _contains_aggregate(t: Term) -> bool:
    if isinstance(t, Aggregate):
        return True
    if isinstance(t, BinOp):
        return _contains_aggregate(t.left) or _contains_aggregate(t.right)
    if isinstance(t, Neg):
        return _contains_aggregate(t.operand)
    return False


def parse_source(src: str, file: str) -> list[Item]:
    """Parse one file's text into items (includes are left unresolved)."""
    return Parser(src, file).parse()


def parse_tuple(text: str) -> tuple[str, tuple[str | int, ...]]:
    """Parse a ground tuple such as ``path("a", -3)`` into ``("path", ("a", -3))``."""
    p = Parser(text.strip() + " .", "<tuple>")
    atom = p.atom()
    if not p.at("."):
        p.fail("expected the end of the tuple")
    vals: list[str | int] = []
    for a in atom.args:
        if isinstance(a, Str | Num):
            vals.append(a.value)
        else:
            raise DatalogSyntaxError("tuple arguments must be string or number constants", a.loc)
    return atom.rel, tuple(vals)


def format_tuple(rel: str, values: tuple[str | int, ...]) -> str:
    """The canonical text of a tuple: ``path("a","c")`` (Soufflé string escapes)."""
    return f"{rel}({','.join(quote(v) if isinstance(v, str) else str(v) for v in values)})"
