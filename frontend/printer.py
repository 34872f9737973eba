"""IR -> MLIR text. ``print_module(m)`` prints aliases, the ops (custom syntax where a
dialect registered a ``@prints`` printer, generic form otherwise) and the resources
section verbatim. ``Printer`` is the API dialect printers use.

SSA names: a value keeps its parsed name when that name is still free in the current
isolated-from-above scope (e.g. one ``func.func``), otherwise it gets ``%<n>``; names
are assigned at first mention, so forward references work. Block labels likewise
(``^bb<n>``).

No recursion: ``Printer.region`` returns a placeholder and records the region with the
indentation and name scope of its op; ``Printer.op`` expands placeholders in text order
with an explicit stack, printing each region's ops as it reaches them (any depth).
"""

from __future__ import annotations

from collections.abc import Iterator

from bufferlog.core.regex import compile as compile_regex

from . import attrs as A
from .dialects import PRINTERS, load_all
from .gcpause import paused
from .ir import Block, Module, Op, Region, Value
from .parser import ISOLATED_OPS

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

_NAME_OK = compile_regex(r"^[A-Za-z0-9_$.\-]+$")
_REGION_MARK = compile_regex("\x00([0-9]+)\x01")  # Printer.region's placeholder
INDENT = "  "


class _NameScope:
    __slots__ = ("used", "counter", "bcounter")

    def __init__(self) -> None:
        self.used: set[str] = set()
        self.counter = 0
        self.bcounter = 0


class Printer:
    """Printing state. ``generic=True`` forces the generic form for every op;
    ``mlir_opt=True`` prints as mlir-opt does where bufferlog otherwise keeps the input's
    spelling (see :func:`print_module`)."""

    def __init__(self, generic: bool = False, aliases: dict[str, Any] | None = None,
                 debuginfo: bool = False, mlir_opt: bool = False):
        self.generic = generic
        self.debuginfo = debuginfo
        self.mlir_opt = mlir_opt
        self.indent = 0
        self._names: dict[int, str] = {}
        self._keep: list[Any] = []  # keep named objects alive so id() stays unique
        self._scopes: list[_NameScope] = [_NameScope()]
        self._alias_by_text: dict[str, str] = {}
        # regions awaiting expansion: (region, entry_args, elide, indent, name scope)
        self._regions: list[tuple[Region, bool, bool, int, _NameScope]] = []
        for k, a in (aliases or {}).items():
            if isinstance(a, A.AffineMapAttr):
                self._alias_by_text.setdefault(a.text, k)
        load_all()

    # -- names ----------------------------------------------------------------------------
    def _fresh(self, hint: str | None, prefix: str, block: bool = False) -> str:
        sc = self._scopes[-1]
        if hint and _NAME_OK.match(hint) and (prefix + hint) not in sc.used:
            name = prefix + hint
        else:
            while True:
                if block:
                    name = f"{prefix}bb{sc.bcounter}"
                    sc.bcounter += 1
                else:
                    name = f"{prefix}{sc.counter}"
                    sc.counter += 1
                if name not in sc.used:
                    break
        sc.used.add(name)
        return name

    def value(self, v: Value) -> str:
        """``%name`` of a value (assigned at first mention); with ``mlir_opt`` the results
        of an op with several are one group, ``%name#i``."""
        n = self._names.get(id(v))
        if n is None and self.mlir_opt and len(getattr(getattr(v, "op", None), "results", ())) > 1:
            base = self._fresh(v.op.results[0].name, "%")
            for r in v.op.results:
                self._names[id(r)] = f"{base}#{r.index}"
                self._keep.append(r)
            return self._names[id(v)]
        if n is None:
            n = self._fresh(v.name, "%")
            self._names[id(v)] = n
            self._keep.append(v)
        return n

    def values(self, vs: list[Value] | tuple[Value, ...]) -> str:
        return ", ".join(self.value(v) for v in vs)

    def block_name(self, b: Block) -> str:
        n = self._names.get(id(b))
        if n is None and self.mlir_opt and b.parent is not None:
            n = f"^bb{b.parent.blocks.index(b)}"  # mlir-opt numbers the blocks of each region
            self._names[id(b)] = n
            self._keep.append(b)
        if n is None:
            n = self._fresh(b.label, "^", block=True)
            self._names[id(b)] = n
            self._keep.append(b)
        return n

    # -- types and attributes ----------------------------------------------------------
    def type(self, t: Any) -> str:
        return str(t)

    def types(self, ts: list[Any] | tuple[Any, ...]) -> str:
        return ", ".join(map(str, ts))

    def attr(self, a: Any) -> str:
        if hasattr(a, "print_with"):  # an attribute naming values (dump-alias-sets)
            return a.print_with(self)
        if self.mlir_opt:
            from .opt_style import format_dense, format_float, format_int, format_string

            if isinstance(a, A.FloatAttr) and a.type is not None:
                lit = format_float(a.value, str(a.type))
                if lit is not None and not (a.text or "").startswith(("0x", "-0x")):
                    return f"{lit} : {a.type}"
            elif isinstance(a, A.DenseElementsAttr):
                return f"dense<{format_dense(a.text, a.type)}> : {a.type}"
            elif isinstance(a, A.DictAttr):
                return "{" + ", ".join(self.named_attr(k, v) for k, v in sorted(a.items, key=lambda kv: kv[0])) + "}"
            elif isinstance(a, A.ArrayAttr):
                return "[" + ", ".join(self.attr(x) for x in a.elems) + "]"
            elif isinstance(a, A.StringAttr):
                return format_string(a.value) + (f" : {a.type}" if a.type is not None else "")
            elif isinstance(a, A.IntegerAttr) and a.type is not None:
                return f"{format_int(a.value, str(a.type))} : {a.type}"
        if isinstance(a, A.AffineMapAttr) and a.alias is None:
            al = self._alias_by_text.get(a.text)
            if al:
                return f"#{al}"
        return str(a)

    def attr_dict(self, op: Op, elide: tuple[str, ...] | list[str] | set[str] = ()) -> str:
        """`` {k = v, ...}`` of ``op.attrs`` minus ``elide`` (empty string if none)."""
        items = [(k, v) for k, v in op.attrs.items() if k not in elide]
        if not items:
            return ""
        if self.mlir_opt:  # an MLIR dictionary is sorted by name
            items.sort(key=lambda kv: kv[0])
        return " {" + ", ".join(self.named_attr(k, v) for k, v in items) + "}"

    def named_attr(self, k: str, v: Any) -> str:
        key = k if A._BARE.match(k) else A.escape_string(k)
        return key if isinstance(v, A.UnitAttr) else f"{key} = {self.attr(v)}"

    def successor(self, block: Block, operands: list[Value] | tuple[Value, ...] = ()) -> str:
        """``^bb1`` or ``^bb1(%a, %b : t1, t2)``."""
        s = self.block_name(block)
        if operands:
            s += f"({self.values(operands)} : {self.types([v.type for v in operands])})"
        return s

    # -- regions and ops ------------------------------------------------------------------
    def region(self, r: Region, entry_args: bool = True, elide_terminator: bool = False) -> str:
        """``{ ... }`` with the body indented one level deeper than the current op.
        ``entry_args=False``: the op printed the entry block's arguments itself;
        ``elide_terminator``: leave out the entry block's last op (an implicit terminator).
        Returns a placeholder that ``op()`` replaces by the region's text."""
        self._regions.append((r, entry_args, elide_terminator, self.indent, self._scopes[-1]))
        return f"\x00{len(self._regions) - 1}\x01"

    def _region_text(self, k: int) -> Iterator[Any]:
        """Pieces of region ``k``'s text, in order (op texts may hold placeholders)."""
        r, entry_args, elide, indent, scope = self._regions[k]
        if not r.blocks:
            yield "{\n" + INDENT * indent + "}"
            return
        saved = self.indent
        self.indent = indent + 1
        self._scopes.append(scope)
        try:
            sep = "{\n"
            for i, b in enumerate(r.blocks):
                ops = b.ops[:-1] if elide and i == 0 else b.ops
                if i == 0 and not entry_args:
                    for a in b.args:
                        self.value(a)
                    label = None
                elif i == 0:
                    label = self._label(b) if (b.args or not ops) else None
                else:
                    label = self._label(b)
                if label is not None:
                    yield sep + INDENT * indent + label
                    sep = "\n"
                for op in ops:
                    yield sep + INDENT * (indent + 1)
                    yield self._op_text(op)
                    sep = "\n"
            yield ("{\n" if sep == "{\n" else "\n") + INDENT * indent + "}"
        finally:
            self._scopes.pop()
            self.indent = saved

    def _expand(self, text: str) -> str:
        """Replace region placeholders (recursively, with an explicit stack)."""
        if "\x00" not in text:
            return text
        out: list[str] = []
        stack: list[Iterator[Any]] = [iter((text,))]
        while stack:
            piece = next(stack[-1], None)
            if piece is None:
                stack.pop()
            elif "\x00" not in piece:
                out.append(piece)
            else:
                parts = _REGION_MARK.split(piece)
                stack.append(x for i, p in enumerate(parts) for x in
                             (self._region_text(int(p)) if i % 2 else (p,)))
        return "".join(out)

    def _label(self, b: Block) -> str:
        s = self.block_name(b)
        if b.args:
            s += "(" + ", ".join(f"{self.value(a)}: {self.type(a.type)}" for a in b.args) + ")"
        return s + ":" + (self._preds(b) if self.mlir_opt else "")

    def _preds(self, b: Block) -> str:
        """mlir-opt's comment after a block label: its predecessors, in block order."""
        r = b.parent
        if r is None or r.blocks[0] is b:
            return ""
        preds = [p for p in r.blocks if p.ops for s in p.ops[-1].successors if s is b]
        if not preds:
            return "  // no predecessors"
        if len(preds) == 1:
            return f"  // pred: {self.block_name(preds[0])}"
        return f"  // {len(preds)} preds: " + ", ".join(self.block_name(p) for p in preds)

    def op(self, op: Op) -> str:
        """One op (results, body), without indentation of its first line."""
        return self._expand(self._op_text(op))

    def _op_text(self, op: Op) -> str:
        """The op with placeholders for its regions."""
        isolated = op.name in ISOLATED_OPS
        if isolated:
            self._scopes.append(_NameScope())
        try:
            res = self.values(op.results)
            if self.mlir_opt and len(op.results) > 1:
                res = f"{res.split('#', 1)[0]}:{len(op.results)}"
            fn = None if self.generic else PRINTERS.get(op.name)
            body = fn(self, op) if fn is not None else self.generic_op(op)
        finally:
            if isolated:
                self._scopes.pop()
        if self.debuginfo:
            body += " " + location(op)
        return f"{res} = {body}" if op.results else body

    def generic_op(self, op: Op) -> str:
        """The generic form, correct for any op. When the op's custom printer carries a
        ``generic_parts(op) -> (attrs, regions)`` hook, those replace ``op.attrs`` and
        ``op.regions``: the parts MLIR's generic form shows but the custom syntax (and so
        the IR) leaves implicit, e.g. a named linalg op's body."""
        text = getattr(PRINTERS.get(op.name), "generic_text", None)
        if text is not None:  # an op whose IR keeps a part as text (its own hook prints it)
            t = text(self, op)
            if t is not None:
                return t
        attrs, regions = op.attrs, op.regions
        hook = getattr(PRINTERS.get(op.name), "generic_parts", None)
        if hook is not None:
            attrs, regions = hook(op)
        s = A.escape_string(op.name) + "(" + self.values(op.operands) + ")"
        if op.successors:
            s += "[" + ", ".join(self.block_name(b) for b in op.successors) + "]"
        if regions:
            s += " (" + ", ".join(self.region(r, True) for r in regions) + ")"
        if attrs:
            items = sorted(attrs.items(), key=lambda kv: kv[0]) if self.mlir_opt else attrs.items()
            s += " {" + ", ".join(self.named_attr(k, v) for k, v in items) + "}"
        ins = "(" + self.types([v.type for v in op.operands]) + ")"
        outs = [r.type for r in op.results]
        one = len(outs) == 1 and not self.type(outs[0]).startswith("(")
        s += f" : {ins} -> " + (self.type(outs[0]) if one else f"({self.types(outs)})")
        return s


def location(op: Op) -> str:
    """The ``loc(...)`` mlir-opt's ``--mlir-print-debuginfo`` would print for ``op``: the
    input's own ``loc(...)`` if it had one, else its position in the input
    (``loc("f.mlir":3:5)``); an op a pass created carries the input op's location, named by
    its cause (``loc("copy: ..."("f.mlir":3:5))``)."""
    if op.src_loc is not None:
        inner = op.src_loc[op.src_loc.index("(") + 1:-1].strip()
    elif op.loc.line:
        at = op.name_loc or op.loc
        inner = f"{A.escape_string(at.file)}:{at.line}:{at.col}"
    else:
        inner = "unknown"
    if op.cause is not None:
        inner = f"{A.escape_string(op.cause)}({inner})"
    return f"loc({inner})"


def print_op(op: Op, generic: bool = False) -> str:
    return Printer(generic).op(op) + "\n"


def print_module(m: Module, generic: bool = False, debuginfo: bool = False,
                 mlir_opt: bool = False) -> str:
    """Full MLIR text of a module: aliases, ops, resources. ``debuginfo``: each op ends
    with its location (:func:`location`), as with ``mlir-opt --mlir-print-debuginfo``.
    ``mlir_opt``: as mlir-opt prints it, for FileCheck lines written against mlir-opt:
    the ``module`` around the ops, attributes sorted by name, floats in mlir-opt's
    spelling, the results of an op with several as one group (``%0:2``, ``%0#1``),
    the blocks of each region numbered from ``^bb0`` with their predecessors in a comment,
    affine maps as ``#map``, ``#map1``, ... in order of first use (frontend/opt_style.py).
    Value names stay the input's."""
    with paused():
        return _print_module(m, generic, debuginfo, mlir_opt)


def _print_module(m: Module, generic: bool, debuginfo: bool = False, mlir_opt: bool = False) -> str:
    p = Printer(generic, m.aliases, debuginfo, mlir_opt)
    out: list[str] = []
    for k, a in m.aliases.items():
        if isinstance(a, A.AffineMapAttr):
            val = f"affine_map<{a.text}>"
        elif isinstance(a, A.IntegerSetAttr):
            val = f"affine_set<{a.text}>"
        else:
            val = str(a)
        out.append(f"#{k} = {val}")
    for k, t in m.type_aliases.items():
        out.append(f"!{k} = {t}")
    if mlir_opt:
        from .opt_style import alias_maps

        return alias_maps(p.op(m.module_op), out, m.aliases) + (
            "\n" + m.resources if m.resources else "")
    if m.explicit_module or generic:
        out.append(p.op(m.module_op))
    else:
        p._scopes.append(_NameScope())
        for op in m.body.ops:
            out.append(p.op(op))
    text = "\n".join(out) + "\n"
    if m.resources:
        text += "\n" + m.resources
    return text
