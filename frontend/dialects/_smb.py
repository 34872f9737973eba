"""Shared helpers of the scf / memref / bufferization dialect modules: lark tree access,
mixed static/dynamic lists (``[%i, 2]``), segment sizes, attribute dicts, implicit
terminators. Registers no builders or printers."""

from __future__ import annotations

from ..attrs import DenseArrayAttr, UnitAttr, format_named_attr
from ..ir import Block, Op, Region, Value
from ..syntax_tree import Token, Tree
from . import DYNAMIC

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

Mixed = list[int | Value]  # a static int or an SSA value per entry


# -- lark trees ------------------------------------------------------------------------

def kids(tree: Tree, name: str) -> list[Tree]:
    """Direct sub-trees of ``tree`` produced by rule ``name``."""
    return [c for c in tree.children if isinstance(c, Tree) and c.data == name]


def kid(tree: Tree, name: str) -> Tree | None:
    for c in tree.children:
        if isinstance(c, Tree) and c.data == name:
            return c
    return None


def has(tree: Tree, name: str) -> bool:
    return kid(tree, name) is not None


def first_token(node: Tree | Token) -> Token:
    if isinstance(node, Token):
        return node
    for c in node.children:
        if isinstance(c, Token):
            return c
        if isinstance(c, Tree):
            try:
                return first_token(c)
            except LookupError:
                continue
    raise LookupError("no token")


def ssa_def_name(node: Tree | Token) -> str:
    """The name a ``value_use`` node spells (``%i`` -> ``i``), for values the op's own
    syntax defines (induction variables, iter_args)."""
    text = str(first_token(node))
    return text[1:] if text.startswith("%") else text


# -- mixed static / dynamic lists ------------------------------------------------------

def mixed(ctx: Any, node: Tree | None, elts_rule: str, elt_rule: str) -> Mixed:
    """Entries of a ``[..]``/``(..)`` list of ``value_use | integer``."""
    if node is None:
        return []
    elts = kid(node, elts_rule) if node.data != elts_rule else node
    if elts is None:
        return []
    out: Mixed = []
    for e in kids(elts, elt_rule):
        sub = e.children[0]
        if isinstance(sub, Tree) and sub.data == "value_use":
            out.append(ctx.use(sub))
        else:
            out.append(ctx.int64(sub))
    return out


def split_mixed(entries: Mixed) -> tuple[DenseArrayAttr, list[Value]]:
    """(``array<i64: ...>`` with DYNAMIC for SSA entries, the SSA values in order)."""
    static = [DYNAMIC if isinstance(e, Value) else e for e in entries]
    return DenseArrayAttr("i64", tuple(static)), [e for e in entries if isinstance(e, Value)]


def join_mixed(static: Any, dynamic: list[Value]) -> Mixed:
    """Inverse of :func:`split_mixed`."""
    it = iter(dynamic)
    return [next(it) if s == DYNAMIC else s for s in static_values(static)]


def static_values(a: Any) -> tuple[int, ...]:
    if a is None:
        return ()
    if isinstance(a, DenseArrayAttr):
        return tuple(a.values)
    return tuple(getattr(e, "value", e) for e in a.elems)


def print_mixed(p: Any, entries: Mixed, open_: str = "[", close: str = "]") -> str:
    return open_ + ", ".join(p.value(e) if isinstance(e, Value) else str(e)
                             for e in entries) + close


def segments(*sizes: int) -> DenseArrayAttr:
    return DenseArrayAttr("i32", tuple(sizes))


def segment(op: Op, i: int) -> list[Value]:
    """Operands of segment ``i`` per the op's ``operandSegmentSizes``."""
    sizes = static_values(op.attrs["operandSegmentSizes"])
    start = sum(sizes[:i])
    return op.operands[start:start + sizes[i]]


# -- printing --------------------------------------------------------------------------

def attr_dict(p: Any, op: Op, elide: tuple[str, ...] = (), keyword: bool = False) -> str:
    """`` {a = 1, b}`` (leading space) of ``op.attrs`` minus ``elide``; empty if none."""
    items = [(k, v) for k, v in op.attrs.items() if k not in elide]
    if not items:
        return ""
    if getattr(p, "mlir_opt", False):  # an MLIR dictionary is sorted by name
        items.sort(key=lambda kv: kv[0])
    body = []
    for k, v in items:
        if isinstance(v, UnitAttr):
            body.append(format_named_attr(k, v))
        else:
            body.append(format_named_attr(k, UnitAttr()) + " = " + p.attr(v))
    return (" attributes " if keyword else " ") + "{" + ", ".join(body) + "}"


def typed_values(p: Any, vals: list[Value]) -> str:
    """``%a, %b : t1, t2`` (empty if no values)."""
    if not vals:
        return ""
    return p.values(vals) + " : " + ", ".join(p.type(v.type) for v in vals)


def types_arrow(p: Any, types: list[Any]) -> str:
    """`` -> (t1, t2)`` for result types; empty if none."""
    if not types:
        return ""
    return " -> (" + ", ".join(p.type(t) for t in types) + ")"


# -- implicit terminators --------------------------------------------------------------

def ensure_block(region: Region) -> None:
    """Give an empty region its (empty) entry block."""
    if not region.blocks:
        region.append(Block())


def ensure_terminator(region: Region, name: str, loc: Any = None) -> None:
    """Give a single-block region the implicit terminator ``name`` (MLIR's
    SingleBlockImplicitTerminator) if its body does not end with it."""
    ensure_block(region)
    block = region.entry
    if block.ops and block.ops[-1].name == name:
        return
    from ..verify import TERMINATORS
    if block.ops and block.ops[-1].name in TERMINATORS:
        return  # MLIR adds none after a (registered) terminator; the verifier judges it
    kw = {"loc": loc} if loc is not None else {}
    if name == "scf.forall.in_parallel":
        block.append(Op(name, regions=[Region([Block()])], **kw))
    else:
        block.append(Op(name, **kw))


def is_trivial_terminator(op: Op | None, name: str) -> bool:
    """True for an operand-less, attribute-less terminator that custom syntax elides."""
    if op is None or op.name != name or op.operands or op.attrs:
        return False
    return all(not b.ops for r in op.regions for b in r.blocks)


# -- typed operand resolution ------------------------------------------------------------

def typed_use(ctx: Any, node: Any, t: Any) -> Value:
    """``ctx.use`` with the type the op's syntax declares for it (types forward
    references; a mismatch with the value's known type is a located error)."""
    v = ctx.use(node, t)
    if t is not None and v.type is not None and v.type != t:
        ctx.error(node, f"use of value '%{v.name}' expects type {t}, but it has type {v.type}")
    return v


def typed_uses(ctx: Any, node: Any, ts: list[Any]) -> list[Value]:
    vals = list(ctx.uses(node, list(ts)))
    if len(vals) != len(ts):
        ctx.error(node, f"{len(vals)} values but {len(ts)} types")
    for v, t in zip(vals, ts, strict=True):
        if v.type is not None and v.type != t:
            ctx.error(node, f"use of value '%{v.name}' expects type {t}, but it has type {v.type}")
    return vals
