"""MLIR text -> IR (``frontend.ir``): a table-driven LALR parser plus a top-down walker.

``parse(text, filename)`` returns a ``Module``. The grammar is ``grammar/core.lark``
followed by every other ``grammar/*.lark`` family file (``frontend/parse_tables.py``
compiles it once with lark and caches the tables; ``frontend/lalr.py`` runs them). Dialect
builders (``@builds``) receive a ``ParseCtx`` and the parse tree (``frontend/syntax_tree.py``).

Location policy: every op gets ``Loc(file, line, col)`` of its first token. An op's
trailing ``loc(...)`` is kept verbatim as ``Op.src_loc`` (printed with
``print_module(..., debuginfo=True)``, like ``--mlir-print-debuginfo``); other ``loc(...)``
annotations (block and function arguments) are accepted and dropped; ``#loc = loc(...)``
alias definitions are kept in ``Module.aliases`` as ``OpaqueAttr`` and printed back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator

from bufferlog.core import UserError
from bufferlog.core.regex import compile as compile_regex

from . import attrs as A
from . import types as T
from .dense_literal import dense_syntax_error
from .dialects import BUILDERS, load_all
from .gcpause import paused
from .int_ranges import INT64_MAX, MAX_INT_WIDTH, attr_error, dense_error, int64_error
from .ir import Block, Loc, Module, Op, Region, SourceLines, Value
from .lalr import FailToken, ParseFailure, grammar
from .parse_tables import grammar_text  # noqa: F401  (re-exported for tools and tests)
from .syntax_tree import Token, Tree
from .trampoline import drive

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

#: ops whose regions do not see values defined outside (fresh SSA scope)
ISOLATED_OPS = {"builtin.module", "func.func", "gpu.module", "gpu.func", "llvm.func",
                "ml_program.func", "transform.named_sequence", "spirv.module"}


#: ops spelled without their dialect in custom syntax (MLIR's default dialect)
_DEFAULT_DIALECT = {"return": "func.return", "call": "func.call"}


class MLIRSyntaxError(UserError):
    """A located parse error, printed as ``file:line:col: error: msg``."""


# -------------------------------------------------------------------------------------
# helpers

_ESC = compile_regex(r'\\(?:([0-9A-Fa-f]{2})|(.))', re.S)
_SIMPLE_ESC = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unescape(lit: str) -> str:
    """Body of an MLIR string literal (with quotes) -> Python str."""
    body = lit[1:-1]
    if "\\" not in body:
        return body

    def rep(m: re.Match[str]) -> str:
        if m.group(1):
            return chr(int(m.group(1), 16))
        return _SIMPLE_ESC.get(m.group(2), m.group(2))

    return _ESC.sub(rep, body)


_STRING_OR_COMMENT = compile_regex(r'//[^\n]*+|"(?:[^"\\]++|\\.)*+"', re.S)
_ESCAPE = compile_regex(r'\\(?:[0-9A-Fa-f]{2}|[nt"\\]|(.))', re.S)


def bad_string(text: str, skip: list[tuple[int, int]]) -> tuple[int, str] | None:
    """(offset, message) of the first string literal of ``text`` (outside comments and
    the ``skip`` spans, the ``{-# ... #-}`` sections, checked on their own) that MLIR's
    lexer rejects: a backslash that starts no escape it knows (``\\n \\t \\"
    \\\\`` or two hex digits)."""
    if "\\" not in text:
        return None
    for m in _STRING_OR_COMMENT.finditer(text):
        if m.group().startswith('"') and "\\" in m.group():
            if any(a <= m.start() < b for a, b in skip):
                continue
            for e in _ESCAPE.finditer(m.group()):
                if e.group(1) is not None:
                    return m.start() + e.start(), "unknown escape in string literal"
    return None


def _first_token(node: Any) -> Token | None:
    """The token where ``node`` starts (a tree spanning no text: its first token inside)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Token):
            return n
        if isinstance(n, Tree):
            if n.first is not None:
                return n.first
            stack.extend(reversed(n.children))
    return None


class _Placeholder(Value):
    """A use of a value not yet defined (forward reference)."""

    __slots__ = ("loc_",)

    @property
    def owner(self) -> Any:  # pragma: no cover - placeholders never escape
        return None


class _Scope:
    """SSA names of one region; ``isolated`` stops lookup into enclosing scopes."""

    __slots__ = ("values", "blocks", "parent", "isolated", "forward", "fwd_blocks")

    def __init__(self, parent: _Scope | None, isolated: bool):
        self.values: dict[str, list[Value]] = {}
        self.blocks: dict[str, Block] = {}
        self.fwd_blocks: dict[str, Token] = {}
        self.parent = parent
        self.isolated = isolated
        # forward value references, shared by all scopes up to the isolation barrier
        self.forward: dict[tuple[str, int], tuple[_Placeholder, Token]] = (
            {} if isolated or parent is None else parent.forward)


class ParseCtx:
    """The parser state dialect builders use to resolve tree pieces to IR."""

    def __init__(self, filename: str):
        self.file = filename
        self.aliases: dict[str, Any] = {}
        self.type_aliases: dict[str, Any] = {}
        self.scope = _Scope(None, True)
        self._pending: list[tuple[Any, ...]] = []  # regions the running builder asked for
        self.op_name = ""  # the op being built, as spelled (for messages)

    # -- locations and errors -----------------------------------------------------------
    def loc(self, node: Any) -> Loc:
        t = _first_token(node)
        if t is None or t.line is None:
            return Loc(self.file, 0, 0)
        return Loc(self.file, t.line, t.column)

    def loc_in(self, tok: Token, offset: int) -> Loc:
        """The position ``offset`` characters into token ``tok`` (which may span lines)."""
        text = str(tok)
        nl = text.count("\n", 0, offset)
        if nl:
            return Loc(self.file, tok.line + nl, offset - text.rfind("\n", 0, offset))
        return Loc(self.file, tok.line, tok.column + offset)

    def text_error(self, tok: Token, body_at: int, e: Any) -> MLIRSyntaxError:
        """Raise error ``e`` (``message``, ``offset``, ``at_previous``: an ``AffineError``,
        a ``ResourceError``) of the text starting ``body_at`` characters into ``tok`` at
        its place in the file (mlir-opt's place for it)."""
        from .affine import wrong_token_offset
        text = str(tok)
        off = body_at + e.offset
        if e.at_previous:
            off = wrong_token_offset(text, off)
        raise MLIRSyntaxError(e.message, self.loc_in(tok, off))

    def error(self, node: Any, msg: str) -> MLIRSyntaxError:
        """Raise a located error (also returns it, so ``raise ctx.error(...)`` reads well)."""
        raise MLIRSyntaxError(msg, self.loc(node))

    # -- small leaves ---------------------------------------------------------------------
    @staticmethod
    def _tok(node: Any) -> Token:
        while isinstance(node, Tree):
            node = node.children[0]
        return node

    def text(self, node: Any) -> str:
        """Raw token text of a leaf (or single-token rule)."""
        return str(self._tok(node))

    def int(self, node: Any) -> int:
        s = str(self._tok(node))
        return int(s, 16) if s.lstrip("+-").startswith("0x") else int(s)

    def number_loc(self, node: Any) -> Loc:
        """Where mlir-opt points at a bad attribute number: its digits (past a minus)."""
        tok = self._tok(node)
        loc = self.loc(tok)
        return Loc(loc.file, loc.line, loc.col + 1) if str(tok).startswith("-") else loc

    def int64(self, node: Any) -> int:
        """A signed 64-bit integer field of custom syntax (offsets, sizes, bounds, ...)."""
        v = self.int(node)
        msg = int64_error(v)
        if msg is not None:
            raise MLIRSyntaxError(f"custom op '{self.op_name}' {msg}", self.loc(node))
        return v

    def int_attr(self, node: Any, type: Any) -> A.IntegerAttr:
        """An integer attribute ``v : type`` whose value must fit ``type``."""
        v = self.int(node)
        msg = attr_error(v, type)
        if msg is not None:
            raise MLIRSyntaxError(msg, self.number_loc(node))
        return A.IntegerAttr(v, type)

    def float(self, node: Any) -> float:
        return float(str(self._tok(node)))

    def str(self, node: Any) -> str:
        s = str(self._tok(node))
        return unescape(s) if s.startswith('"') else s

    def symbol(self, node: Any) -> A.SymbolRefAttr:
        toks = [t for t in node.children] if isinstance(node, Tree) else [node]
        names = [self._sym_name(t) for t in toks]
        return A.SymbolRefAttr(names[0], tuple(names[1:]))

    @staticmethod
    def _sym_name(tok: Any) -> str:
        s = str(tok)[1:]
        return unescape(s) if s.startswith('"') else s

    # -- values ---------------------------------------------------------------------------
    def _lookup(self, name: str) -> list[Value] | None:
        s: _Scope | None = self.scope
        while s is not None:
            v = s.values.get(name)
            if v is not None:
                return v
            if s.isolated:
                return None
            s = s.parent
        return None

    def use(self, node: Any, type: Any = None) -> Value:
        """Resolve a ``value_use`` (``%x`` / ``%x#1``) to a Value (forward refs allowed)."""
        tok = self._tok(node)
        s = str(tok)[1:]
        idx = 0
        if "#" in s:
            s, i = s.split("#", 1)
            idx = int(i)
        group = self._lookup(s)
        if group is not None:
            if idx >= len(group):
                raise MLIRSyntaxError(
                    f"value '%{s}' has {len(group)} result(s), no result #{idx}",
                    self.loc(tok))
            v = group[idx]
        else:
            key = (s, idx)
            fw = self.scope.forward.get(key)
            if fw is None:
                ph = _Placeholder(type, s if idx == 0 else f"{s}#{idx}")
                self.scope.forward[key] = (ph, tok)
                return ph
            v = fw[0]
            if v.type is None:
                v.type = type
        if type is not None and v.type is not None and v.type != type:
            self._type_mismatch(tok, type, v.type)
        return v

    def _type_mismatch(self, tok: Token, want: Any, have: Any) -> None:
        from .verify import same_type
        if not same_type(want, have):
            raise MLIRSyntaxError(f"use of value '{tok}' expects different type than prior "
                                  f"uses: '{want}' vs '{have}'", self.loc(tok))

    def uses(self, node: Any, types: list[Any] | None = None) -> list[Value]:
        """The values of a ``value_use_list``; with ``types``, one type per value (else
        mlir-opt's "number of operands and types do not match", at the first value)."""
        kids = [] if node is None else [node] if not isinstance(node, Tree) or \
            node.data == "value_use" else node.children
        if types is not None and len(types) != len(kids):
            name = _DEFAULT_DIALECT.get(self.op_name, self.op_name)
            raise MLIRSyntaxError(f"custom op '{name}' number of operands and types do not "
                                  f"match: got {len(kids)} operands and {len(types)} types",
                                  self.loc(kids[0] if kids else node))
        if types is None:
            return [self.use(k) for k in kids]
        return [self.use(k, t) for k, t in zip(kids, types, strict=True)]

    def define(self, name: str, values: list[Value], at: Any) -> None:
        """Bind ``%name`` to a result group (or one block arg) in the current scope."""
        if name in self.scope.values or (not self.scope.isolated and self._lookup(name)):
            raise MLIRSyntaxError(f"redefinition of SSA value '%{name}'", self.loc(at))
        self.scope.values[name] = values
        fwd = self.scope.forward
        if fwd:
            for i, v in enumerate(values):
                ent = fwd.pop((name, i), None)
                if ent is not None:
                    ph, use_tok = ent
                    if ph.type is not None and v.type is not None and ph.type != v.type:
                        self._definition_mismatch(name, i, v.type, ph.type, use_tok, at)
                    ph.replace_all_uses_with(v)
                    v.name = name

    # -- types ----------------------------------------------------------------------------
    def type(self, node: Any) -> Any:
        """A ``type`` / ``function_type`` / any builtin type subtree -> Type."""
        if node is None:
            return None
        if isinstance(node, Token):
            raise MLIRSyntaxError(f"expected a type, got '{node}'", self.loc(node))
        d = node.data
        fn = _TYPE_BUILDERS.get(d)
        if fn is None:
            raise MLIRSyntaxError(f"unsupported type '{d}'", self.loc(node))
        return fn(self, node)

    def types(self, node: Any) -> list[Any]:
        """A ``type_list`` / ``type_list_parens`` (or None) -> [Type]."""
        if node is None:
            return []
        if node.data == "type_list_parens":
            node = node.children[0]
            if node is None:
                return []
        if node.data == "type_list":
            return [self.type(c) for c in node.children]
        return [self.type(node)]

    # -- attributes -----------------------------------------------------------------------
    def attr(self, node: Any) -> Any:
        if node is None:
            return None
        fn = _ATTR_BUILDERS.get(node.data)
        if fn is None:
            raise MLIRSyntaxError(f"unsupported attribute '{node.data}'", self.loc(node))
        return fn(self, node)

    def attr_dict(self, node: Any) -> dict[str, Any]:
        """An ``attr_dict`` / ``attr_dict_with_keyword`` / ``dict_or_alias`` (or None)
        -> ordered dict."""
        if node is None:
            return {}
        if node.data == "dict_or_alias":
            node = node.children[0]
            if isinstance(node, Token):  # #alias: must name a dictionary
                a = _hash_attr(self, Tree("hash_attr", [node]))
                if not isinstance(a, A.DictAttr):
                    raise MLIRSyntaxError(f"custom op '{self.op_name}' invalid kind of "
                                          "attribute specified", self.loc(node))
                return dict(a.items)
        if node.data in ("attr_dict_with_keyword", "dict_attr", "generic_props"):
            node = node.children[0]
        out: dict[str, Any] = {}
        for na in node.children:
            if na is None:
                continue
            key_tok, val = na.children
            key = self.str(key_tok)
            out[key] = A.UnitAttr() if val is None else self.attr(val)
        return out

    # -- blocks and regions ---------------------------------------------------------------
    def block_arg(self, node: Any) -> tuple[str, Any, Loc]:
        """A ``block_arg_decl`` -> (name without %, type, loc)."""
        tok = node.children[0]
        return str(tok)[1:], self.type(node.children[1]), self.loc(tok)

    def block_args(self, node: Any) -> list[tuple[str, Any, Loc]]:
        if node is None:
            return []
        return [self.block_arg(c) for c in node.children]

    def _block_ref(self, tok: Token) -> Block:
        name = str(tok)[1:]
        b = self.scope.blocks.get(name)
        if b is None:
            b = Block(label=name)
            self.scope.blocks[name] = b
            self.scope.fwd_blocks[name] = tok
        return b

    def successor(self, node: Any) -> tuple[Block, list[Value]]:
        """A ``successor`` -> (Block, forwarded operands)."""
        tok, vals_node, types_node = node.children
        blk = self._block_ref(tok)
        if vals_node is None:
            return blk, []
        return blk, self.uses(vals_node, self.types(types_node))

    def successors(self, node: Any) -> list[tuple[Block, list[Value]]]:
        if node is None:
            return []
        return [self.successor(c) for c in node.children]

    def region(self, node: Any, entry_args: list[tuple[str, Any, Any]] | None = None,
               isolated: bool = False, then: Callable[[Region], None] | None = None) -> Region:
        """A ``region`` in a new SSA scope. ``entry_args`` are the entry block's arguments
        declared by the op's own syntax (then the region must not start with a block
        label); ``isolated`` for isolated-from-above ops (fresh names).

        The region comes back empty and is filled once the builder returns, before the
        op's results are bound (so deep nesting needs no recursion: ``frontend/trampoline.py``); ``then``
        runs on the filled region (e.g. to add an implicit terminator)."""
        region = Region()
        self._pending.append((region, node, entry_args, isolated, then, self.scope))
        return region

    def _fill_region(self, job: tuple[Any, ...]) -> Generator[Any, Any, None]:
        """Build a region's blocks; yields the completion of each op that has regions."""
        region, node, entry_args, isolated, then, outer = job
        self.scope = _Scope(outer, isolated)
        try:
            kids = node.children
            entry = Block()
            has_entry_ops = bool(kids) and isinstance(kids[0], Tree) and kids[0].data == "entry_block"
            if entry_args is not None:
                if not has_entry_ops and kids and kids[0].data == "block":
                    label_node = kids[0].children[0]
                    if label_node.children[1] is not None:
                        raise MLIRSyntaxError(
                            "entry block arguments are declared by the op; the region must "
                            "not redeclare them", self.loc(label_node))
                region.append(entry)
                for name, ty, loc in entry_args:
                    name = name[1:] if name.startswith("%") else name
                    a = entry.add_arg(ty, name, loc)
                    self.define(name, [a], loc_token(loc))
            start = 0
            if has_entry_ops:
                if entry_args is None:
                    region.append(entry)
                nodes = kids[0].children
                for j, op_node in enumerate(nodes):
                    nodes[j] = None  # the op's tree can go once its IR exists
                    op = self._start_op(op_node)
                    entry.append(op if isinstance(op, Op) else (yield op))
                start = 1
            for i, bnode in enumerate(kids[start:]):
                merge = i == 0 and entry_args is not None and not has_entry_ops
                blk = self._block(bnode, region, entry if merge else None)
                nodes = bnode.children
                for j in range(1, len(nodes)):
                    op_node, nodes[j] = nodes[j], None
                    op = self._start_op(op_node)
                    blk.append(op if isinstance(op, Op) else (yield op))
            for name, tok in self.scope.fwd_blocks.items():
                raise MLIRSyntaxError(f"reference to an undefined block '^{name}'",
                                      self.loc(tok))
            if isolated:
                self._check_forward()
        finally:
            self.scope = outer
        if then is not None:
            then(region)

    def _block(self, node: Tree, region: Region, into: Block | None) -> Block:
        """The block of a ``block`` node, its label and arguments defined (not its ops)."""
        label = node.children[0]
        tok, args = label.children
        name = str(tok)[1:]
        if into is not None:
            blk = into
            blk.label = name
            if name in self.scope.blocks:
                raise MLIRSyntaxError(f"redefinition of block '^{name}'", self.loc(tok))
            self.scope.blocks[name] = blk
        else:
            blk = self.scope.blocks.get(name)
            if blk is None:
                blk = Block(label=name)
                self.scope.blocks[name] = blk
            elif name not in self.scope.fwd_blocks:
                raise MLIRSyntaxError(f"redefinition of block '^{name}'", self.loc(tok))
            self.scope.fwd_blocks.pop(name, None)
            region.append(blk)
        for aname, ty, loc in self.block_args(args):
            a = blk.add_arg(ty, aname, loc)
            self.define(aname, [a], loc_token(loc))
        return blk

    def _definition_mismatch(self, name: str, i: int, have: Any, used: Any, use_tok: Token,
                             at: Any) -> None:
        from .verify import same_type
        if not same_type(have, used):
            u = self.loc(use_tok)
            raise MLIRSyntaxError(f"definition of SSA value '%{name}#{i}' has type '{have}' "
                                  f"(previously used at {u.line}:{u.col} with type '{used}')",
                                  self.loc(at))

    def _check_forward(self) -> None:
        for (name, idx), (_ph, tok) in self.scope.forward.items():
            suffix = f"#{idx}" if idx else ""
            raise MLIRSyntaxError(f"use of undefined value '%{name}{suffix}'", self.loc(tok))

    # -- operations -----------------------------------------------------------------------
    def operation(self, node: Tree) -> Op:
        """Build one ``operation`` node: the op, its regions, then bind its result names."""
        op = self._start_op(node)
        return op if isinstance(op, Op) else drive(op)

    def _start_op(self, node: Tree) -> Op | Generator[Any, Any, Op]:
        """Run the op's builder. Without regions the op is done (returned); otherwise a
        generator finishes it: regions first, then the builder's error if it raised one
        after asking for a region (the region's text comes first, as its errors do)."""
        saved, self._pending = self._pending, []
        try:
            try:
                op = self._op_head(node)
            except UserError as e:
                if not self._pending:
                    raise
                return self._finish_op(None, node, self._pending, e)
            if self._pending:
                return self._finish_op(op, node, self._pending, None)
            self._bind_op(op, node)
            return op
        finally:
            self._pending = saved

    def _finish_op(self, op: Op | None, node: Tree, jobs: list[tuple[Any, ...]],
                   error: UserError | None) -> Generator[Any, Any, Op]:
        for job in jobs:
            yield self._fill_region(job)
        if error is not None:
            raise error
        assert op is not None
        self._bind_op(op, node)
        return op

    def _op_head(self, node: Tree) -> Op:
        kids = node.children
        res_node = kids[0] if isinstance(kids[0], Tree) and kids[0].data == "op_results" else None
        body = kids[1] if res_node is not None else kids[0]
        first = _first_token(body)
        if body.data == "generic_op":
            self.op_name = unescape(str(first))
            return self._generic(body)
        self.op_name = str(first)
        return self._custom(body)

    def _bind_op(self, op: Op, node: Tree) -> None:
        kids = node.children
        res_node = kids[0] if isinstance(kids[0], Tree) and kids[0].data == "op_results" else None
        op.loc = self.loc(node)
        if res_node is not None:  # MLIR locates an op at its name, after the results
            op.name_loc = self.loc(_first_token(kids[1]))
        last = kids[-1]
        if isinstance(last, Token) and last.type == "LOC":
            op.src_loc = str(last)
        if res_node is not None:
            self._bind_results(op, res_node)
        elif op.results:
            for r in op.results:
                r.name = None

    def _bind_results(self, op: Op, res_node: Tree) -> None:
        groups: list[tuple[Token, int]] = []
        for r in res_node.children:
            tok = r.children[0]
            n = 1 if len(r.children) < 2 or r.children[1] is None else self.int(r.children[1])
            if "#" in tok:
                raise MLIRSyntaxError(f"invalid result name '{tok}'", self.loc(tok))
            groups.append((tok, n))
        total = sum(n for _, n in groups)
        if total != len(op.results):
            raise MLIRSyntaxError(
                f"operation defines {len(op.results)} results but was provided {total} to bind",
                self.loc(res_node))
        i = 0
        for tok, n in groups:
            vals: list[Value] = list(op.results[i:i + n])
            name = str(tok)[1:]
            for v in vals:
                v.name = name
            self.define(name, vals, tok)
            i += n

    def _generic(self, node: Tree) -> Op:
        name_tok, operands, succs, props, regions, attrd, fty = node.children
        name = unescape(str(name_tok))
        ft = self.type(fty)
        n = 0 if operands is None else len(operands.children)
        if n != len(ft.inputs):
            raise MLIRSyntaxError(f"expected {n} operand types but had {len(ft.inputs)}",
                                  self.loc(fty))
        operand_vals = self.uses(operands, list(ft.inputs))
        attrs: dict[str, Any] = {}
        if props is not None:
            attrs.update(self.attr_dict(props))
        attrs.update(self.attr_dict(attrd))
        blocks = [self.successor(s)[0] for s in succs.children[0].children] if succs is not None else []
        regs = []
        if regions is not None:
            iso = name in ISOLATED_OPS
            regs = [self.region(r, None, isolated=iso) for r in regions.children]
        return Op(name, operand_vals, list(ft.results), attrs, regs, blocks)

    def _custom(self, node: Tree) -> Op:
        n = node
        while n.data not in BUILDERS:
            kids = [c for c in n.children if c is not None]
            if len(kids) == 1 and isinstance(kids[0], Tree):
                n = kids[0]
                continue
            if len(kids) == 1 and isinstance(kids[0], Token):
                raise MLIRSyntaxError(
                    f"unknown operation '{kids[0]}' in custom syntax (use the generic form "
                    f'"{kids[0]}"(...))', self.loc(kids[0]))
            raise MLIRSyntaxError(f"no builder registered for grammar rule '{n.data}'",
                                  self.loc(n))
        op = BUILDERS[n.data](self, n)
        if not isinstance(op, Op):
            raise MLIRSyntaxError(f"builder for '{n.data}' returned no Op", self.loc(n))
        return op


def loc_token(loc: Loc | None) -> Token | None:
    if loc is None:
        return None
    return Token("X", "", line=loc.line, column=loc.col)


# -------------------------------------------------------------------------------------
# type builders

def _dims(ctx: ParseCtx, tok: Token) -> list[str]:
    """The dimensions of a ``DIMS`` / ``VDIMS`` token (``4x?x[8]x``); a static one must
    be below 2^63 (mlir-opt: "invalid dimension", at the dimension)."""
    out = str(tok).split("x")[:-1]
    col = 0
    for d in out:
        digits = d.strip("[]")
        if digits != "?" and int(digits) > INT64_MAX:
            at = ctx.loc(tok)
            raise MLIRSyntaxError("invalid dimension",
                                  Loc(at.file, at.line, at.col + col + d.find(digits)))
        col += len(d) + 1
    return out


def _shape(ctx: ParseCtx, tok: Token | None) -> tuple[int | None, ...]:
    if tok is None:
        return ()
    return tuple(None if d == "?" else int(d) for d in _dims(ctx, tok))


_SHAPED_LITERALS: dict[str, Any] = {}  # TENSOR_LIT / MEMREF_LIT text -> its (shared) type
_SHAPED_PARTS = compile_regex(r"(\w+)<((?:(?:[0-9]+|\?)x)*)(\w+)>")


def _shaped_literal(tok: Token) -> Any:
    """The type of a one-token ``tensor<4x?xf32>`` / ``memref<...>`` (types are immutable
    values: one object per spelling, built once)."""
    t = _SHAPED_LITERALS.get(tok)
    if t is None:
        kind, dims, elem = _SHAPED_PARTS.match(tok).groups()
        shape = tuple(None if d == "?" else int(d) for d in dims.split("x")[:-1])
        if elem == "index":
            et: Any = T.IndexType()
        elif elem in _FLOATS:
            et = _FLOATS[elem]
        else:
            sign = elem[0] if elem[0] in "su" else ""
            et = T.IntegerType(int(elem[len(sign) + 1:]), sign)
        t = T.TensorType(shape, et, None) if kind == "tensor" else \
            T.MemRefType(shape, et, None, None)
        _SHAPED_LITERALS[str(tok)] = t
    return t


def _tensor(ctx: ParseCtx, n: Tree) -> Any:
    if len(n.children) == 1:
        return _shaped_literal(n.children[0])
    dims, elem, enc = n.children
    return T.TensorType(_shape(ctx, dims), ctx.type(elem), ctx.attr(enc))


def _memref(ctx: ParseCtx, n: Tree) -> Any:
    if len(n.children) == 1 and isinstance(n.children[0], Token):
        return _shaped_literal(n.children[0])
    dims, elem, *extra = n.children
    shape = _shape(ctx, dims)
    ex = [ctx.attr(e) for e in extra]
    layout = memspace = None
    if len(ex) == 2:
        layout, memspace = ex
    elif len(ex) == 1:
        a = ex[0]
        if isinstance(a, A.AffineMapAttr | A.StridedLayoutAttr):
            layout = a
        else:
            memspace = a
    elif len(ex) > 2:
        raise MLIRSyntaxError("unsupported type: too many memref parameters", ctx.loc(n))
    if isinstance(layout, A.StridedLayoutAttr) and len(layout.strides) != len(shape):
        raise MLIRSyntaxError("expected the number of strides to match the rank", ctx.loc(n))
    if isinstance(layout, A.AffineMapAttr):
        n_dims = layout.map.num_dims
        if n_dims != len(shape):
            raise MLIRSyntaxError("memref layout mismatch between rank and affine map: "
                                  f"{len(shape)} != {n_dims}", ctx.loc(n))
    return T.MemRefType(shape, ctx.type(elem), layout, memspace)


def _vector(ctx: ParseCtx, n: Tree) -> Any:
    dims, elem = n.children
    shape: list[int] = []
    scal: list[bool] = []
    if dims is not None:
        for d in _dims(ctx, dims):
            s = d.startswith("[")
            shape.append(int(d.strip("[]")))
            scal.append(s)
    return T.VectorType(tuple(shape), ctx.type(elem), tuple(scal) if any(scal) else ())


def _function(ctx: ParseCtx, n: Tree) -> Any:
    ins, outs = n.children
    res = ctx.types(outs) if outs.data == "type_list_parens" else [ctx.type(outs)]
    return T.FunctionType(tuple(ctx.types(ins)), tuple(res))


def _opaque_type(ctx: ParseCtx, n: Tree) -> Any:
    s = str(n.children[0])
    if "<" not in s and "." not in s:
        t = ctx.type_aliases.get(s[1:])
        if t is None:
            raise MLIRSyntaxError(f"undefined type alias '{s}'", ctx.loc(n))
        return t
    return T.OpaqueType(s)


def _int_type(ctx: ParseCtx, n: Tree) -> Any:
    s = str(n.children[0])
    sign = s[0] if s[0] in "su" else ""
    width = int(s[len(sign) + 1:])
    if width > MAX_INT_WIDTH:
        raise MLIRSyntaxError(f"integer bitwidth is limited to {MAX_INT_WIDTH} bits", ctx.loc(n))
    return T.IntegerType(width, sign)


_FLOATS = {k: T.FloatType(k) for k in T.FLOAT_WIDTHS}

_TYPE_BUILDERS: dict[str, Any] = {
    "type": lambda c, n: c.type(n.children[0]),
    "function_type": _function,
    "tensor_type": _tensor,
    "unranked_tensor_type": lambda c, n: T.UnrankedTensorType(c.type(n.children[1])),
    "memref_type": _memref,
    "unranked_memref_type": lambda c, n: T.UnrankedMemRefType(c.type(n.children[1]),
                                                               c.attr(n.children[2])),
    "vector_type": _vector,
    "complex_type": lambda c, n: T.ComplexType(c.type(n.children[0])),
    "tuple_type": lambda c, n: T.TupleType(tuple(c.types(n.children[0]))),
    "int_type": _int_type,
    "float_type": lambda c, n: _FLOATS.get(str(n.children[0])) or T.FloatType(str(n.children[0])),
    "index_type": lambda c, n: T.IndexType(),
    "none_type": lambda c, n: T.NoneType(),
    "opaque_type": _opaque_type,
}


# -------------------------------------------------------------------------------------
# attribute builders

def _int_attr(ctx: ParseCtx, n: Tree) -> Any:
    tok, ty = n.children
    t = ctx.type(ty)
    s = str(tok)
    if isinstance(t, T.FloatType):
        if s.lstrip("+-").startswith("0x"):
            bits = int(s, 16)
            return A.FloatAttr(_hex_to_float(bits, t), t, s)
        return A.FloatAttr(float(int(s)), t, s + ".0")
    if isinstance(t, T.IntegerType) and t.width == 1 and s in ("0", "1"):
        return A.IntegerAttr(int(s), t)
    if t is None:  # untyped: i64 (printed without a type)
        attr = ctx.int_attr(tok, T.IntegerType(64))
        return A.IntegerAttr(attr.value, None)
    return ctx.int_attr(tok, t)


def _hex_to_float(bits: int, t: T.FloatType) -> float:
    import struct
    try:
        if t.name == "f32":
            return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
        if t.name == "f64":
            return struct.unpack("<d", struct.pack("<Q", bits & 0xFFFFFFFFFFFFFFFF))[0]
        if t.name == "f16":
            return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]
        if t.name == "bf16":
            return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    except (struct.error, OverflowError):
        pass
    return float("nan")


def _float_attr(ctx: ParseCtx, n: Tree) -> Any:
    tok, ty = n.children
    return A.FloatAttr(float(str(tok)), ctx.type(ty), str(tok))


def _str_attr(ctx: ParseCtx, n: Tree) -> Any:
    tok, ty = n.children
    return A.StringAttr(unescape(str(tok)), ctx.type(ty))


def _array_attr(ctx: ParseCtx, n: Tree) -> Any:
    return A.ArrayAttr(tuple(ctx.attr(c) for c in n.children if c is not None))


def _dense_array(ctx: ParseCtx, n: Tree) -> Any:
    ty, elems = n.children
    t = ctx.type(ty)
    vals: list[Any] = []
    if elems is not None:
        for e in elems.children:
            tok = e.children[0]
            s = str(tok)
            if s in ("true", "false"):
                vals.append(s == "true")
            elif isinstance(t, T.FloatType):
                vals.append(float(s) if "." in s or "e" in s.lower() and "x" not in s
                            else float(int(s, 0)))
            else:
                v = int(s, 0) if s.lstrip("+-").startswith("0x") else int(s)
                after = ctx.loc(tok)
                after = Loc(after.file, after.line, after.col + len(s))  # mlir-opt's spot
                if t == T.IntegerType(1):
                    raise MLIRSyntaxError("expected 'true' or 'false' values for i1 type", after)
                if attr_error(v, t) is not None:
                    raise MLIRSyntaxError("integer constant out of range", after)
                vals.append(v)
    return A.DenseArrayAttr(str(t), tuple(vals))


def _dense(ctx: ParseCtx, n: Tree) -> Any:
    tok, ty = n.children
    body = str(tok)[len("dense<"):-1]
    if ty is None:
        return A.OpaqueAttr(str(tok))
    t = ctx.type(ty)
    bad = dense_syntax_error(body, t) or dense_error(body, getattr(t, "elem", None))
    if bad is not None:
        off, msg = bad
        off += len("dense<")
        at = ctx.loc(tok)
        nl = str(tok).count("\n", 0, off)
        col = off - str(tok).rfind("\n", 0, off) if nl else at.col + off
        raise MLIRSyntaxError(msg, Loc(at.file, at.line + nl, col))
    return A.DenseElementsAttr(body, t)


def _dense_resource(ctx: ParseCtx, n: Tree) -> Any:
    handle, ty = n.children
    if ty is None:
        return A.OpaqueAttr(f"dense_resource<{handle}>")
    return A.DenseResourceAttr(str(handle), ctx.type(ty))


def _hash_attr(ctx: ParseCtx, n: Tree) -> Any:
    s = str(n.children[0])
    if "<" in s or "." in s:
        return A.OpaqueAttr(s)
    a = ctx.aliases.get(s[1:])
    if a is None:
        raise MLIRSyntaxError(f"undefined attribute alias '{s}'", ctx.loc(n))
    return a


def _strided(ctx: ParseCtx, n: Tree) -> Any:
    kids = n.children
    off_node = kids[-1]
    strides = [c for c in kids[:-1] if c is not None]

    def val(s: Tree) -> int | None:
        t = str(s.children[0])
        if t == "?":
            return None
        if int64_error(int(t)) is not None and int(t) != -(2**63):
            raise MLIRSyntaxError("expected a 64-bit signed integer or '?'", ctx.loc(s))
        return int(t)

    return A.StridedLayoutAttr(tuple(val(s) for s in strides),
                               0 if off_node is None else val(off_node))


def _affine_map(ctx: ParseCtx, n: Tree) -> Any:
    """``affine_map<...>``: parsed (frontend/affine.py) and checked as MLIR does."""
    from .affine import AffineError, parse_map
    tok = n.children[0]
    body = str(tok)[len("affine_map<"):-1]
    try:
        parse_map(body)
    except AffineError as e:
        ctx.text_error(tok, len("affine_map<"), e)
    return A.AffineMapAttr(body)


def _affine_set(ctx: ParseCtx, n: Tree) -> Any:
    from .affine import AffineError, parse_set
    tok = n.children[0]
    body = str(tok)[len("affine_set<"):-1]
    try:
        parse_set(body)
    except AffineError as e:
        ctx.text_error(tok, len("affine_set<"), e)
    return A.IntegerSetAttr(body)


_ATTR_BUILDERS: dict[str, Any] = {
    "attr": lambda c, n: c.attr(n.children[0]),
    "int_attr": _int_attr,
    "float_attr": _float_attr,
    "str_attr": _str_attr,
    "true_attr": lambda c, n: A.BoolAttr(True),
    "false_attr": lambda c, n: A.BoolAttr(False),
    "unit_attr": lambda c, n: A.UnitAttr(),
    "array_attr": _array_attr,
    "dict_attr": lambda c, n: A.DictAttr(tuple(c.attr_dict(n).items())),
    "attr_dict": lambda c, n: A.DictAttr(tuple(c.attr_dict(n).items())),
    "dense_array_attr": _dense_array,
    "dense_attr": _dense,
    "dense_resource_attr": _dense_resource,
    "affine_map_attr": _affine_map,
    "affine_set_attr": _affine_set,
    "hash_attr": _hash_attr,
    "strided_attr": _strided,
    "symbol_attr": lambda c, n: c.symbol(n.children[0]),
    "symbol_ref": lambda c, n: c.symbol(n),
    "type_attr": lambda c, n: A.TypeAttr(c.type(n.children[0])),
}


# -------------------------------------------------------------------------------------
# entry point

_TYPE_START = {"INT_TYPE", "FLOAT_TYPE"}
_READABLE = {"VALUE_ID": "a value (%x)", "BLOCK_ID": "a block (^bb)", "SYMBOL_ID": "a symbol (@f)",
             "STRING": "a string", "INTEGER": "an integer", "FLOAT": "a float",
             "BARE_ID": "an identifier", "INT_TYPE": "a type", "HASH_ATTR": "an attribute"}


def _expected(e: ParseFailure) -> str:
    g = grammar()
    names = []
    for name in sorted(e.expected):
        if name in _READABLE:
            names.append(_READABLE[name])
            continue
        pat = g.pattern(name)
        if pat is not None and pat[0] == "str":
            names.append(f"'{pat[1]}'")
    names = sorted(set(names))
    if not names:
        return ""
    more = ", ..." if len(names) > 8 else ""
    return " (expected " + ", ".join(names[:8]) + more + ")"


def _describe(e: ParseFailure) -> str:
    tok = e.token
    if tok is None:
        return f"unexpected character '{e.char}'"
    if tok.type == "$END":
        return "unexpected end of input"
    if tok.type in ("TENSOR_LIT", "MEMREF_LIT"):  # one-token types: name the keyword
        tok = Token(tok.type, str(tok).split("<", 1)[0], tok.start_pos, tok.line, tok.column)
    if e.expected & _TYPE_START and (str(tok)[:1].isalnum() or str(tok).startswith("?")):
        return f"unsupported type '{tok}'"
    return f"unexpected '{tok}'{_expected(e)}"


def parse(text: str, filename: str = "-") -> Module:
    """Parse MLIR text into a ``Module``; raise ``MLIRSyntaxError`` on bad input."""
    with paused():
        return _parse(text, filename)


def _parse(text: str, filename: str) -> Module:
    load_all()
    top = _TopLevel(ParseCtx(filename))
    try:
        grammar().parse(text, on_item=top.add)
    except FailToken as e:
        t = e.token
        raise MLIRSyntaxError(
            f"unknown operation '{t}' in custom syntax (use the generic form \"{t}\"(...))",
            Loc(filename, t.line, t.column)) from None
    except ParseFailure as e:
        line, col = e.line, e.column
        if e.token is not None and e.token.type == "$END":
            lines = text.rstrip().splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
        raise MLIRSyntaxError(_describe(e), Loc(filename, line, col)) from None
    bad = bad_string(text, top.sections)
    if bad is not None:
        at, msg = bad
        nl = text.count("\n", 0, at)
        raise MLIRSyntaxError(msg, Loc(filename, nl + 1, at - text.rfind("\n", 0, at)))
    module = top.module(top.resources.text(), filename)
    module.source_lines = SourceLines(text)
    from .verify import verify_module
    verify_module(module)  # dominance, terminators, parents, region signatures
    return module


class _TopLevel:
    """Builds the module one top-level item at a time, as the parser completes it (so a
    file's parse tree never exists whole: each item's tree is dropped once built).

    A syntax error anywhere is reported before any error of building (as when the whole
    tree came first, and as mlir-opt does): ``add`` keeps the first building error and
    builds nothing after it; ``module`` raises it once the text has parsed."""

    def __init__(self, ctx: ParseCtx):
        from .resources import Resources
        self.ctx = ctx
        self.top = Block()
        self.error: UserError | None = None
        self.resources = Resources()
        self.sections: list[tuple[int, int]] = []  # spans of the {-# #-} sections

    def add(self, item: Tree) -> None:
        if self.error is None:
            try:
                self._add(item)
            except UserError as e:
                self.error = e

    def _add(self, item: Tree) -> None:
        ctx, d = self.ctx, item.data
        if d == "alias_def":
            tok, val = item.children
            name = str(tok)[1:]
            if name in ctx.aliases:
                raise MLIRSyntaxError(f"redefinition of attribute alias id '{name}'",
                                      ctx.loc(tok))
            if isinstance(val, Token):  # loc(...) alias
                ctx.aliases[name] = A.OpaqueAttr(str(val))
                return
            a = ctx.attr(val)
            if isinstance(a, A.AffineMapAttr):
                a = A.AffineMapAttr(a.text, name)
            elif isinstance(a, A.IntegerSetAttr):
                a = A.IntegerSetAttr(a.text, name)
            ctx.aliases[name] = a
        elif d == "file_metadata":
            from .resources import ResourceError, parse_section
            tok = item.children[0]
            self.sections.append((tok.start_pos, tok.start_pos + len(tok)))
            try:
                parse_section(str(tok), self.resources)
            except ResourceError as e:
                ctx.text_error(tok, 0, e)
        elif d == "type_alias_def":
            tok, ty = item.children
            if str(tok)[1:] in ctx.type_aliases:
                raise MLIRSyntaxError(f"redefinition of type alias id '{str(tok)[1:]}'",
                                      ctx.loc(tok))
            ctx.type_aliases[str(tok)[1:]] = ctx.type(ty)
        else:
            self.top.append(ctx.operation(item))

    def module(self, resources: str | None, filename: str) -> Module:
        ctx, top = self.ctx, self.top
        if self.error is not None:
            raise self.error
        ctx._check_forward()
        explicit = len(top.ops) == 1 and top.ops[0].name == "builtin.module" \
            and not top.ops[0].results
        if explicit:
            mod = top.ops[0]
            top.ops.clear()
            mod.parent = None
        else:
            mod = Op("builtin.module", regions=[Region([top])], loc=Loc(filename, 1, 1))
        return Module(mod, filename, dict(ctx.aliases), dict(ctx.type_aliases), resources,
                      explicit)


def parse_type(text: str) -> Any:
    """Parse one type from its MLIR spelling (helper for tests and tools)."""
    m = parse(f'"bufferlog.type"() : () -> ({text})', "<type>")
    return m.body.ops[0].results[0].type


def parse_attr(text: str) -> Any:
    """Parse one attribute from its MLIR spelling (helper for tests and tools)."""
    m = parse(f'"bufferlog.attr"() {{a = {text}}} : () -> ()', "<attr>")
    return m.body.ops[0].attrs["a"]
