"""transform.named_sequence: read and printed back, nothing more.

A transform script (``module attributes {transform.with_named_sequence} {
transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly})
{ ... } }``) drives MLIR's transform interpreter; bufferlog bufferizes the payload IR
around it and gives the script no semantics. Its signature is parsed as func.func's (the
same properties: ``sym_name``, ``function_type``, ``arg_attrs``, ...); its body, whose
ops are the transform dialect's, stays the verbatim text of its braces
(``Op.opaque_body``, with the argument names it refers to in ``Op.opaque_args``) and is
printed back as written. The op has no region in the IR, so the analysis, the facts and
the backend see an op without operands, results or regions. Checked as mlir-opt checks
the op itself: its parent is a symbol table carrying ``transform.with_named_sequence``,
no argument is both ``transform.readonly`` and ``transform.consumed``, a body is not
empty. What is inside the body is not verified.
"""

from __future__ import annotations

from ..ir import Op
from . import builds, prints
from .builtin_func import func_signature, print_signature

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

NAME = "transform.named_sequence"


@builds("transform_named_sequence")
def build_named_sequence(ctx: Any, tree: Any) -> Op:
    vis, sym, args, results, attrs_kw, body = tree.children
    attrs, entry, named = func_signature(ctx, vis, sym, args, results, attrs_kw)
    if body is not None and args is not None and not named:
        ctx.error(args, "a function with a body needs named arguments")
    op = Op(NAME, (), (), attrs, [], loc=ctx.loc(tree))
    if body is not None:
        inner = body.children[0]
        # the blanks and comments before the first op are skipped by the lexer: start it
        # on its own line, at its column
        lead = "\n" + " " * (inner.column - 1) if inner is not None else ""
        op.opaque_body = "{" + lead + (str(inner) if inner is not None else "\n") + "}"
        op.opaque_args = ["%" + name for name, _t, _loc in entry]
    return op


def body_is_empty(op: Op) -> bool:
    """A body with nothing but blanks and comments between its braces."""
    text = getattr(op, "opaque_body", None)
    if text is None:
        return False
    inner = "\n".join(line.split("//", 1)[0] for line in text[1:-1].split("\n"))
    return not inner.strip()


@prints(NAME)
def print_named_sequence(p: Any, op: Op) -> str:
    if op.regions and op.regions[0].blocks:  # read in generic form: a region of ops
        region = op.regions[0]
        s = print_signature(p, op, NAME, [p.value(a) for a in region.entry.args])
        return s + " " + p.region(region, entry_args=False)
    body = getattr(op, "opaque_body", None)
    names = getattr(op, "opaque_args", None) if body is not None else None
    s = print_signature(p, op, NAME, names)
    return s + " " + body if body is not None else s


def generic_text(p: Any, op: Op) -> str | None:
    """The generic form of a named sequence with a body: the body is printed as the
    region of its entry block, whose label names the arguments."""
    if op.regions:
        return None
    body = getattr(op, "opaque_body", None)
    attrs = ", ".join(p.named_attr(k, v) for k, v in op.attrs.items())
    if body is None:  # a declaration: one empty region
        return f'"{NAME}"() ({{\n}}) {{{attrs}}} : () -> ()'
    ft = op.attrs["function_type"].type
    args = ", ".join(f"{n}: {t}" for n, t in zip(op.opaque_args, ft.inputs, strict=True))
    region = "({\n^bb0(" + args + "):" + body[1:-1] + "})"
    return f'"{NAME}"() {region} {{{attrs}}} : () -> ()'


print_named_sequence.generic_text = generic_text  # type: ignore[attr-defined]


def verify(v: Any, op: Op, parent: Op) -> None:
    """mlir-opt's checks of the op itself, in its order (the body is not verified)."""
    known = parent.name in v.known
    if known and parent.name != "builtin.module":
        v.op_fail(op, "symbol's parent must have the SymbolTable trait")
    if parent.name == "builtin.module" and "transform.with_named_sequence" not in parent.attrs:
        v.fail(op, "expects the parent symbol table to have the "
                   "'transform.with_named_sequence' attribute")
    arg_attrs = op.attrs.get("arg_attrs")
    for i, d in enumerate(getattr(arg_attrs, "elems", ())):
        keys = {k for k, _ in getattr(d, "items", ())}
        if {"transform.readonly", "transform.consumed"} <= keys:
            v.fail(op, f"argument #{i} cannot be both readonly and consumed")
    empty_region = bool(op.regions) and bool(op.regions[0].blocks) \
        and not op.regions[0].blocks[0].ops
    if body_is_empty(op) or empty_region:
        v.fail(op, "expected a non-empty body block")
