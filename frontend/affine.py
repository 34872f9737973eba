"""Affine maps, integer sets and affine expressions, parsed into a structure and checked
as MLIR's affine parser checks them.

* ``parse_map(body)`` / ``parse_set(body)``: the inside of ``affine_map<...>`` /
  ``affine_set<...>`` -> :class:`AffineMap` / :class:`IntegerSet`, or
  :class:`AffineError` (message and offset into ``body``; ``at_previous``: mlir-opt
  reports it right after the previous token, its "wrong token" position).
* ``parse_ssa_map(body)``: the subscripts of ``affine.load %m[%i + 1, symbol(%n)]``
  (the text between the brackets): a map whose dimensions and symbols are the SSA names
  in order of first appearance (dimensions first).

An expression is kept twice: as written (a tuple tree, printed back with the parentheses
its shape needs) and simplified on construction as MLIR builds it (constants folded and
moved right, ``x * 1``, ``x + 0``, ``c1 * x + c2 * x``, multiples under ``floordiv`` /
``mod``, ...). MLIR's checks of affine-ness ("at least one of the multiply operands has to
be either a constant or symbolic", the right operand of ``floordiv`` / ``ceildiv`` /
``mod``) look at the simplified operands, so ``d0 * (d1 - d1)`` is affine and
``d0 * (d1 + d0 - d1 - d0)`` is not, in both tools.

Tuple trees: ``("d", i)`` dimension, ``("s", i)`` symbol, ``("c", v)`` constant,
``(op, lhs, rhs)`` for ``+ - * floordiv ceildiv mod`` and ``("neg", x)`` (written trees
only: a simplified tree has no ``-`` and no ``neg``). No recursion on the nesting depth
beyond the parser's own (parenthesised depth is capped at 200, a located error).
"""

from __future__ import annotations

import math
import re

from bufferlog.core.regex import compile as compile_regex

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
MAX_DEPTH = 200  # parenthesised / negated nesting of one expression


class AffineError(Exception):
    """A malformed affine structure: ``message`` at ``offset`` of the parsed text;
    ``at_previous``: mlir-opt reports it right after the previous token (its
    ``emitWrongTokenError``), else at the token at ``offset``."""

    def __init__(self, message: str, offset: int, at_previous: bool = False):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.at_previous = at_previous


# -- tokens ------------------------------------------------------------------------------

_TOKEN = compile_regex(
    r"(?P<blank>(?:[ \t\r\n\f]++|//[^\n]*+)++)"
    r"|(?P<id>[A-Za-z_][A-Za-z0-9_$.]*+)"
    r"|(?P<float>[0-9]++\.[0-9]*+(?:[eE][-+]?[0-9]++)?)"
    r"|(?P<int>0x[0-9A-Fa-f]++|[0-9]++)"
    r"|(?P<ssa>%[A-Za-z0-9_$.\-]++(?:#[0-9]++)?)"
    r"|(?P<arrow>->)"
    r"|(?P<at>@)"
    r"|(?P<punct>[()\[\],:+\-*<>=?{}!#^|~&;'\"\\/$%`])"
    r"|(?P<other>.)", re.S)


def _tokenize(text: str) -> list[tuple[str, str, int]]:
    """(kind, spelling, offset) of each token, blanks and ``//`` comments dropped, then
    ``("eof", "", len(text))``."""
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "blank":
            continue
        out.append((kind, m.group(), m.start()))
    out.append(("eof", "", len(text)))
    return out


# -- simplified expressions (MLIR's construction-time simplification) --------------------

def const(e: tuple[Any, ...]) -> int | None:
    return e[1] if e[0] == "c" else None


def symbolic(e: tuple[Any, ...]) -> bool:
    """No dimension inside (MLIR's ``isSymbolicOrConstant``)."""
    stack = [e]
    while stack:
        x = stack.pop()
        k = x[0]
        if k == "d":
            return False
        if k not in ("s", "c"):
            stack.extend(x[1:])
    return True


def largest_divisor(e: tuple[Any, ...]) -> int:
    """A positive number known to divide ``e`` (1 when nothing better is known)."""
    k = e[0]
    if k == "c":
        return abs(e[1])
    if k in ("d", "s"):
        return 1
    if k == "*":
        a, b = largest_divisor(e[1]), largest_divisor(e[2])
        return a * b
    if k == "+":
        return math.gcd(largest_divisor(e[1]), largest_divisor(e[2])) or 1
    if k in ("floordiv", "ceildiv"):
        c = const(e[2])
        if c:
            d = largest_divisor(e[1])
            if d % c == 0:
                return abs(d // c)
        return 1
    if k == "mod":
        c = const(e[2])
        if c:
            return math.gcd(largest_divisor(e[1]), abs(c)) or 1
        return 1
    return 1


def add(lhs: tuple[Any, ...], rhs: tuple[Any, ...]) -> tuple[Any, ...]:
    lc, rc = const(lhs), const(rhs)
    if lc is not None and rc is not None:
        return ("c", lc + rc)
    if lc is not None or (symbolic(lhs) and not symbolic(rhs)):
        return add(rhs, lhs)
    if rc == 0:
        return lhs
    if lhs[0] == "+" and rc is not None:
        c = const(lhs[2])
        if c is not None:
            return add(lhs[1], ("c", c + rc))
    # c1 * x + c2 * x -> (c1 + c2) * x
    f1, x1 = (lhs[2][1], lhs[1]) if lhs[0] == "*" and lhs[2][0] == "c" else (1, lhs)
    f2, x2 = (rhs[2][1], rhs[1]) if rhs[0] == "*" and rhs[2][0] == "c" else (1, rhs)
    if x1 == x2:
        return mul(x1, ("c", f1 + f2))
    if lhs[0] == "+" and lhs[2][0] == "c":  # (x + c) + y -> (x + y) + c
        return add(add(lhs[1], rhs), lhs[2])
    # x - (x floordiv q) * q -> x mod q
    if rhs[0] not in ("+", "*", "floordiv", "ceildiv", "mod"):
        return ("+", lhs, rhs)
    lr, rr = rhs[1], rhs[2]
    if rr == ("c", -1) and lr[0] == "*":
        fl = lr[1]
        if fl[0] != "floordiv":
            return ("+", lhs, rhs)
        if fl[2] == lr[2] and lhs == fl[1]:
            return mod(lhs, lr[2])
    if lr[0] != "floordiv":
        return ("+", lhs, rhs)
    if lhs == lr[1] and rr[0] == "c" and lr[2] == ("c", -rr[1]):
        return mod(lhs, lr[2])
    return ("+", lhs, rhs)


def mul(lhs: tuple[Any, ...], rhs: tuple[Any, ...]) -> tuple[Any, ...]:
    lc, rc = const(lhs), const(rhs)
    if lc is not None and rc is not None:
        return ("c", lc * rc)
    if not symbolic(rhs) or lc is not None:
        if not symbolic(lhs) and lc is None:
            return ("*", lhs, rhs)  # non-affine: the parser reports it before this
        return mul(rhs, lhs)
    if rc == 1:
        return lhs
    if rc == 0:
        return rhs
    if lhs[0] == "*":
        c = const(lhs[2])
        if c is not None:
            if rc is not None:
                return mul(lhs[1], ("c", c * rc))
            return mul(mul(lhs[1], rhs), lhs[2])
    return ("*", lhs, rhs)


def floordiv(lhs: tuple[Any, ...], rhs: tuple[Any, ...]) -> tuple[Any, ...]:
    lc, rc = const(lhs), const(rhs)
    if rc is None or rc < 1:
        return ("floordiv", lhs, rhs)
    if lc is not None:
        return ("c", lc // rc)
    if rc == 1:
        return lhs
    if lhs[0] == "*":
        c = const(lhs[2])
        if c is not None and c % rc == 0:
            return mul(lhs[1], ("c", c // rc))
    if lhs[0] == "+":
        if largest_divisor(lhs[1]) % rc == 0 or largest_divisor(lhs[2]) % rc == 0:
            return add(floordiv(lhs[1], rhs), floordiv(lhs[2], rhs))
    return ("floordiv", lhs, rhs)


def ceildiv(lhs: tuple[Any, ...], rhs: tuple[Any, ...]) -> tuple[Any, ...]:
    lc, rc = const(lhs), const(rhs)
    if rc is None or rc < 1:
        return ("ceildiv", lhs, rhs)
    if lc is not None:
        return ("c", -((-lc) // rc))
    if rc == 1:
        return lhs
    if lhs[0] == "*":
        c = const(lhs[2])
        if c is not None and c % rc == 0:
            return mul(lhs[1], ("c", c // rc))
    return ("ceildiv", lhs, rhs)


def mod(lhs: tuple[Any, ...], rhs: tuple[Any, ...]) -> tuple[Any, ...]:
    lc, rc = const(lhs), const(rhs)
    if rc is None or rc < 1:
        return ("mod", lhs, rhs)
    if lc is not None:
        return ("c", lc % rc)
    if largest_divisor(lhs) % rc == 0:
        return ("c", 0)
    if lhs[0] == "+":
        if largest_divisor(lhs[1]) % rc == 0:
            return mod(lhs[2], rhs)
        if largest_divisor(lhs[2]) % rc == 0:
            return mod(lhs[1], rhs)
    if lhs[0] == "mod":
        c = const(lhs[2])
        if c is not None and c >= 1 and c % rc == 0:
            return mod(lhs[1], rhs)
    return ("mod", lhs, rhs)


_BUILD = {"+": add, "*": mul, "floordiv": floordiv, "ceildiv": ceildiv, "mod": mod}


def simplify(e: tuple[Any, ...]) -> tuple[Any, ...]:
    """The simplified form of a written tree (bottom-up, with an explicit stack)."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], bool]] = [(e, False)]
    while stack:
        x, done = stack.pop()
        k = x[0]
        if k in ("d", "s", "c"):
            out.append(x)
        elif not done:
            stack.append((x, True))
            stack.extend((c, False) for c in reversed(x[1:]))
        elif k == "neg":
            out.append(mul(out.pop(), ("c", -1)))
        else:
            r = out.pop()
            lhs = out.pop()
            out.append(add(lhs, mul(r, ("c", -1))) if k == "-" else _BUILD[k](lhs, r))
    return out[0]


# -- printing written trees -------------------------------------------------------------

_PREC = {"+": 1, "-": 1, "*": 2, "floordiv": 2, "ceildiv": 2, "mod": 2}


def expr_text(e: tuple[Any, ...], name: Any = None) -> str:
    """A written tree as MLIR text that reads back as the same tree; ``name(kind, i)``
    spells dimensions / symbols (default ``d0`` / ``s0``)."""
    if name is None:
        def name(kind: str, i: int) -> str:
            return f"{kind}{i}"
    out: list[str] = []
    stack: list[Any] = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.append(x)
            continue
        k = x[0]
        if k in ("d", "s"):
            out.append(name(k, x[1]))
        elif k == "c":
            out.append(str(x[1]))
        elif k == "neg":
            inner = x[1]
            paren = inner[0] in _PREC
            stack.extend([")", inner, "-("] if paren else [inner, "-"])
        else:
            p = _PREC[k]
            lhs, rhs = x[1], x[2]
            lp = lhs[0] in _PREC and _PREC[lhs[0]] < p
            rp = rhs[0] in _PREC and _PREC[rhs[0]] <= p
            parts = ["(", lhs, ")"] if lp else [lhs]
            parts.append(f" {k} ")
            parts += ["(", rhs, ")"] if rp else [rhs]
            stack.extend(reversed(parts))
    return "".join(out)


# -- structures --------------------------------------------------------------------------

class AffineMap:
    """``(d0, ..)[s0, ..] -> (e0, ..)``: ``results`` as written, ``simplified`` as MLIR
    holds them."""

    __slots__ = ("num_dims", "num_syms", "results", "simplified")

    def __init__(self, num_dims: int, num_syms: int, results: tuple[Any, ...]):
        self.num_dims = num_dims
        self.num_syms = num_syms
        self.results = results
        self.simplified = tuple(simplify(r) for r in results)

    @property
    def num_inputs(self) -> int:
        return self.num_dims + self.num_syms

    def text(self) -> str:
        dims = ", ".join(f"d{i}" for i in range(self.num_dims))
        syms = ", ".join(f"s{i}" for i in range(self.num_syms))
        head = f"({dims})" + (f"[{syms}]" if self.num_syms else "")
        return head + " -> (" + ", ".join(expr_text(r) for r in self.results) + ")"

    def constant_results(self) -> list[int] | None:
        """The values of a map whose results are all constants, else None."""
        vals = [const(r) for r in self.simplified]
        return None if any(v is None for v in vals) else vals  # type: ignore[return-value]

    def is_symbol_identity(self) -> bool:
        """``()[s0] -> (s0)`` (an SSA loop bound)."""
        return self.num_dims == 0 and self.num_syms == 1 and self.simplified == (("s", 0),)

    def result_dims(self) -> list[int | None]:
        """Per result: the dimension it is (``d2`` -> 2), else None."""
        return [r[1] if r[0] == "d" else None for r in self.simplified]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, AffineMap) and self.num_dims == other.num_dims
                and self.num_syms == other.num_syms and self.simplified == other.simplified)

    def __hash__(self) -> int:
        return hash((self.num_dims, self.num_syms, self.simplified))

    def __repr__(self) -> str:
        return f"AffineMap<{self.text()}>"


class IntegerSet:
    """``(d0, ..)[s0, ..] : (e >= 0, e == 0, ..)``: each constraint as ``(written lhs,
    written rhs, simplified lhs - rhs, is_equality)``."""

    __slots__ = ("num_dims", "num_syms", "constraints")

    def __init__(self, num_dims: int, num_syms: int, constraints: tuple[Any, ...]):
        self.num_dims = num_dims
        self.num_syms = num_syms
        self.constraints = constraints

    @property
    def num_inputs(self) -> int:
        return self.num_dims + self.num_syms

    def __repr__(self) -> str:
        return f"IntegerSet<{self.num_dims} dims, {self.num_syms} symbols, " \
               f"{len(self.constraints)} constraints>"


# -- the parser ---------------------------------------------------------------------------

_HIGH_KEYWORDS = ("floordiv", "ceildiv", "mod")


class _Parser:
    """MLIR's affine parser, reading a token list; every error is its message and
    position."""

    def __init__(self, text: str, ssa: bool = False):
        self.toks = _tokenize(text)
        self.i = 0
        self.ssa = ssa
        self.names: list[tuple[str, tuple[Any, ...]]] = []  # declared identifiers
        self.ssa_ids: list[tuple[str, bool, int]] = []  # (name, is symbol, offset)
        self.num_dim_ops = 0
        self.num_sym_ops = 0
        self.depth = 0

    # -- tokens and errors --------------------------------------------------------------
    @property
    def tok(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def at(self, spelling: str) -> bool:
        k, s, _ = self.toks[self.i]
        return s == spelling and k in ("punct", "arrow", "id")

    def consume_if(self, spelling: str) -> bool:
        if self.at(spelling):
            self.i += 1
            return True
        return False

    def error(self, message: str) -> AffineError:
        return AffineError(message, self.tok[2])

    def wrong_token(self, message: str) -> AffineError:
        return AffineError(message, self.tok[2], at_previous=True)

    def expect(self, spelling: str, message: str) -> None:
        if not self.consume_if(spelling):
            raise self.wrong_token(message)

    def is_identifier(self) -> bool:
        return self.tok[0] == "id"

    # -- identifier lists ---------------------------------------------------------------
    def _comma_list(self, open_: str, close: str, context: str, element: Any,
                    optional: bool = False) -> None:
        if optional and not self.at(open_):
            return
        self.expect(open_, f"expected '{open_}'{context}")
        if self.consume_if(close):
            return
        element()
        while self.consume_if(","):
            element()
        self.expect(close, f"expected '{close}'{context}")

    def _define(self, expr: tuple[Any, ...]) -> None:
        if not self.is_identifier():
            raise self.wrong_token("expected bare identifier")
        name = self.tok[1]
        if any(n == name for n, _ in self.names):
            raise self.error(f"redefinition of identifier '{name}'")
        self.i += 1
        self.names.append((name, expr))

    def dims_and_symbols(self) -> tuple[int, int]:
        dims = [0]
        syms = [0]

        def dim() -> None:
            dims[0] += 1
            self._define(("d", dims[0] - 1))

        def sym() -> None:
            syms[0] += 1
            self._define(("s", syms[0] - 1))

        self._comma_list("(", ")", " in dimensional identifier list", dim)
        if self.at("["):
            self._comma_list("[", "]", " in symbol list", sym)
        return dims[0], syms[0]

    # -- expressions (each a (written, simplified) pair) ----------------------------------
    def expr(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """affine-expr: high-precedence chains joined by ``+`` / ``-`` (left assoc.)."""
        w, s = self.term(None)
        while True:
            if self.consume_if("+"):
                rw, rs = self.term(w)
                w, s = ("+", w, rw), add(s, rs)
            elif self.consume_if("-"):
                rw, rs = self.term(w)
                w, s = ("-", w, rw), add(s, mul(rs, ("c", -1)))
            else:
                return w, s

    def term(self, left: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """A chain of ``* floordiv ceildiv mod`` (left assoc.). As in MLIR, combining two
        operands is checked at the next operator of the chain, if any, else at its own."""
        w, s = self.operand(left)
        op = self._high_op()
        while op is not None:
            name, at = op
            rw, rs = self.operand(w)
            op = self._high_op()
            s = self._high(name, s, rs, op[1] if op is not None else at)
            w = (name, w, rw)
        return w, s

    def _high_op(self) -> tuple[str, int] | None:
        k, sp, off = self.tok
        if (k == "punct" and sp == "*") or (k == "id" and sp in _HIGH_KEYWORDS):
            self.i += 1
            return sp, off
        return None

    def _high(self, op: str, lhs: tuple[Any, ...], rhs: tuple[Any, ...],
              at: int) -> tuple[Any, ...]:
        if op == "*":
            if not symbolic(lhs) and not symbolic(rhs):
                raise AffineError("non-affine expression: at least one of the multiply "
                                  "operands has to be either a constant or symbolic", at)
            return mul(lhs, rhs)
        if not symbolic(rhs):
            raise AffineError(f"non-affine expression: right operand of {op} has to be "
                              "either a constant or symbolic", at)
        return _BUILD[op](lhs, rhs)

    def operand(self, left: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        k, sp, off = self.tok
        if k == "id" and sp == "symbol":
            return self.symbol_ssa()
        if k == "ssa":
            return self.ssa_id(False)
        if k == "int":
            return self.integer()
        if k == "punct" and sp == "(":
            return self.paren()
        if k == "punct" and sp == "-":
            return self.negate(left)
        if k == "id":
            return self.bare_id()
        if k == "punct" and sp in "+*":
            raise self.error("missing right operand of binary operator" if left is not None
                             else "missing left operand of binary operator")
        if k == "at":
            raise self.error("@ identifier expected to start with letter or '_'")
        raise self.error("missing right operand of binary operator" if left is not None
                         else "expected affine expression")

    def _nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"affine expression nested more than {MAX_DEPTH} levels deep "
                             "(bufferlog's limit)")

    def paren(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        self.i += 1
        if self.at(")"):
            raise self.error("no expression inside parentheses")
        self._nest()
        e = self.expr()
        self.depth -= 1
        self.expect(")", "expected ')'")
        return e

    def negate(self, left: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        self.i += 1
        self._nest()
        w, s = self.operand(left)
        self.depth -= 1
        return ("neg", w), mul(s, ("c", -1))

    def integer(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        sp = self.tok[1]
        v = int(sp, 16) if sp.startswith("0x") else int(sp)
        if v > 2**63:
            raise self.error("constant too large for index")
        self.i += 1
        if v == 2**63:
            v = INT64_MIN
        return ("c", v), ("c", v)

    def bare_id(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        sp = self.tok[1]
        for n, e in self.names:
            if n == sp:
                self.i += 1
                return e, e
        raise self.wrong_token("use of undeclared identifier")

    def ssa_id(self, is_symbol: bool) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        if not self.ssa:
            raise self.wrong_token("unexpected ssa identifier")
        k, sp, off = self.tok
        if k != "ssa":
            raise self.wrong_token("expected ssa identifier")
        self.i += 1
        for n, e in self.names:
            if n == sp:
                return e, e
        if is_symbol:
            e = ("s", self.num_sym_ops)
            self.num_sym_ops += 1
        else:
            e = ("d", self.num_dim_ops)
            self.num_dim_ops += 1
        self.names.append((sp, e))
        self.ssa_ids.append((sp, is_symbol, off))
        return e, e

    def symbol_ssa(self) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        self.i += 1
        self.expect("(", "expected '(' at start of SSA symbol")
        e = self.ssa_id(True)
        self.expect(")", "expected ')' at end of SSA symbol")
        return e

    # -- maps and sets ------------------------------------------------------------------
    def results(self, context: str) -> tuple[Any, ...]:
        out: list[tuple[Any, ...]] = []

        def element() -> None:
            out.append(self.expr()[0])

        self._comma_list("(", ")", context, element)
        return tuple(out)

    def constraint(self) -> tuple[Any, ...]:
        lw, ls = self.expr()
        if self.consume_if(">") and self.consume_if("="):
            rw, rs = self.expr()
            return (lw, rw, add(ls, mul(rs, ("c", -1))), False)
        if self.consume_if("<") and self.consume_if("="):
            rw, rs = self.expr()
            return (rw, lw, add(rs, mul(ls, ("c", -1))), False)
        if self.consume_if("=") and self.consume_if("="):
            rw, rs = self.expr()
            return (lw, rw, add(ls, mul(rs, ("c", -1))), True)
        raise self.error("expected '== affine-expr' or '>= affine-expr' at end of affine "
                         "constraint")

    def map_or_set(self, want: str) -> AffineMap | IntegerSet:
        start = self.tok[2]
        dims, syms = self.dims_and_symbols()
        if self.consume_if("->"):
            m = AffineMap(dims, syms, self.results(" in affine map range"))
            if want == "set":
                raise AffineError("expected IntegerSet, but got AffineMap", start)
            return m
        self.expect(":", "expected '->' or ':'")
        cs: list[tuple[Any, ...]] = []

        def element() -> None:
            cs.append(self.constraint())

        self._comma_list("(", ")", " in integer set constraint list", element)
        if want == "map":
            raise AffineError("expected AffineMap, but got IntegerSet", start)
        if not cs:
            cs.append((("c", 0), ("c", 0), ("c", 0), True))
        return IntegerSet(dims, syms, tuple(cs))

    def end(self, what: str) -> None:
        if self.tok[0] != "eof":
            raise self.wrong_token(f"expected '>' in {what}")


_MAPS: dict[str, AffineMap] = {}
_SETS: dict[str, IntegerSet] = {}


def parse_map(body: str) -> AffineMap:
    """The inside of ``affine_map<...>`` (remembered per text)."""
    m = _MAPS.get(body)
    if m is None:
        p = _Parser(body)
        m = p.map_or_set("map")
        p.end("affine map")
        assert isinstance(m, AffineMap)
        if len(_MAPS) > 4096:
            _MAPS.clear()
        _MAPS[body] = m
    return m


def parse_set(body: str) -> IntegerSet:
    """The inside of ``affine_set<...>`` (remembered per text)."""
    s = _SETS.get(body)
    if s is None:
        p = _Parser(body)
        s = p.map_or_set("set")
        p.end("integer set")
        assert isinstance(s, IntegerSet)
        if len(_SETS) > 4096:
            _SETS.clear()
        _SETS[body] = s
    return s


def parse_ssa_map(text: str) -> tuple[AffineMap, list[tuple[str, bool, int]]]:
    """Subscripts of SSA names (``[%i + 1, symbol(%n)]``, brackets included): the map over
    them and the names ``(%x, is symbol, offset)``, dimensions first, each in order of
    first appearance."""
    p = _Parser(text, ssa=True)
    out: list[tuple[Any, ...]] = []

    def element() -> None:
        out.append(p.expr()[0])

    p._comma_list("[", "]", " in affine map", element)
    p.end("affine map")
    ids = p.ssa_ids
    ordered = [x for x in ids if not x[1]] + [x for x in ids if x[1]]
    return AffineMap(p.num_dim_ops, p.num_sym_ops, tuple(out)), ordered


def ssa_map_text(m: AffineMap, dims: list[str], syms: list[str]) -> str:
    """The subscripts of ``m`` with its dimensions and symbols named by SSA values
    (``%i + 1, symbol(%n)``), as ``affine.load`` prints them."""
    def name(kind: str, i: int) -> str:
        return dims[i] if kind == "d" else f"symbol({syms[i]})"
    return ", ".join(expr_text(r, name) for r in m.results)


def constant_map(v: int) -> AffineMap:
    return AffineMap(0, 0, (("c", v),))


SYMBOL_IDENTITY = AffineMap(0, 1, (("s", 0),))


def identity_map(rank: int) -> AffineMap:
    return AffineMap(rank, 0, tuple(("d", i) for i in range(rank)))


def wrong_token_offset(text: str, offset: int) -> int:
    """Where mlir-opt puts a "wrong token" error whose token starts at ``offset`` of
    ``text``: right after the previous non-blank character, blank lines skipped (the
    text's start when only blanks precede it: the character before the text ends the
    previous token)."""
    j = offset
    while j > 0 and text[j - 1] in " \t\r\n":
        j -= 1
    return j
