"""Export an IR ``Module`` as input facts: ``dict[relation, list[tuple]]`` and TSV files.

The relations, their columns and types come from ``rules/schema.dl`` (see
``frontend/schema.py``); every row is checked against it, so the exporter and the rules
cannot drift apart silently. Numbering: ops in pre-order (the module op is 0), values,
blocks and regions in order of first appearance in the same walk.

Numbers MLIR allows but a 32-bit column cannot hold are exported as *unknown*, which
every rule already treats conservatively: a static dimension of 2^31 or more as dynamic
(``shape_dim`` -1, no ``type_bytes``); a static slice parameter or loop bound as a
dynamic one (``slice_dynamic`` / ``loop_bound_dynamic``) bound to an opaque value id
below -1 that no fact defines, one id per distinct number (equal numbers compare equal,
different ones never do, and Z3 sees free variables); a large ``arith.constant`` gets no
``const_int``.

Long texts stay out of the facts: ``op_text`` keeps at most ``TEXT_MAX`` characters of
the source line, and an ``attr`` value longer than ``ATTR_MAX`` (a dense literal) is
exported as its start, length and SHA-256 prefix (so different values still differ).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable
from pathlib import Path

from bufferlog.core import UserError
from bufferlog.core.regex import compile as compile_regex

from . import types as T
from .attrs import Attr, DenseArrayAttr, DictAttr, IntegerAttr, StringAttr, SymbolRefAttr
from .dialects import DYNAMIC
from .dialects.linalg import linalg_ins_outs
from .gcpause import paused
from .ir import Block, Module, Op, Region, SourceLines, Value
from .op_table import EXPORTS, PAYLOAD_ARGS, SLICE_LEADING
from .schema import Relation, load_schema
from .trampoline import drive

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
TEXT_MAX = 240  # op_text: longest source line kept (a 50 MB constant's line is cut)
ATTR_MAX = 1024  # attr: longer attribute texts are exported as a digest (_attr_symbol)

# Which ops get which structural rows (slice parameters, destination-style operands,
# function, call and constant rows) is each op's model's word: frontend/op_table.py is
# generated from the registry of op models (backend/ops), which the frontend never imports.


class FactsError(UserError):
    pass


def _clean(s: str) -> str:
    """Symbols travel through TSV: no tabs or newlines."""
    return " ".join(s.replace("\t", " ").splitlines()) if _NEEDS_CLEAN.search(s) else s


# what str.splitlines() splits at, and tabs
_NEEDS_CLEAN = compile_regex("[\t\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


class Facts:
    """Numbering of IR entities plus the rows of every input relation."""

    def __init__(self, module: Module, schema: dict[str, Relation] | None = None):
        self.module = module
        self.schema = schema or load_schema()
        self.rows: dict[str, list[tuple]] = {name: [] for name in self.schema}
        self.op_id: dict[Op, int] = {}
        self.value_id: dict[Value, int] = {}
        self.block_id: dict[Block, int] = {}
        self.region_id: dict[Region, int] = {}
        self.ops: list[Op] = []
        self.values: list[Value] = []
        self._opaque_ids: dict[int, int] = {}  # number too big for a column -> id -2, -3, ...
        self._lines = None
        self._export()

    # -- numbering ---------------------------------------------------------------
    def _val(self, v: Value) -> int:
        i = self.value_id.get(v)
        if i is None:
            i = self.value_id[v] = len(self.values)
            self.values.append(v)
            self._value_rows(v, i)
        return i

    def _add(self, rel: str, *row: object) -> None:
        rows = self.rows.get(rel)
        if rows is None:
            raise FactsError(f"fact exporter writes '{rel}', which rules/schema.dl does not declare")
        rows.append(row)  # checked against the schema once, column by column: _check

    def _check(self) -> None:
        """Every row against rules/schema.dl (arity, number vs symbol, 32-bit range), a
        column at a time; symbols cleaned for TSV. The first bad row is reported."""
        for name, rows in self.rows.items():
            if not rows:
                continue
            r = self.schema[name]
            if len({len(row) for row in rows}) != 1 or len(rows[0]) != r.arity:
                self._reject(name)
            cols = list(zip(*rows, strict=True))
            for j, (_cname, ctype) in enumerate(r.columns):
                col = cols[j]
                if ctype == "number":
                    if set(map(type, col)) != {int} or min(col) < INT32_MIN or max(col) > INT32_MAX:
                        self._reject(name)
                elif set(map(type, col)) != {str}:
                    self._reject(name)
                elif _NEEDS_CLEAN.search("".join(col)):
                    cols[j] = tuple(map(_clean, col))
                    self.rows[name] = list(zip(*cols, strict=True))

    def _reject(self, name: str) -> None:
        r = self.schema[name]
        for row in self.rows[name]:
            if len(row) != r.arity:
                raise FactsError(f"relation '{name}' has arity {r.arity} in rules/schema.dl, "
                                 f"exporter wrote {len(row)}")
            for (cname, ctype), x in zip(r.columns, row, strict=True):
                if ctype == "number":
                    if type(x) is not int or not INT32_MIN <= x <= INT32_MAX:
                        raise FactsError(f"relation '{name}' column '{cname}' needs a 32-bit "
                                         f"number, got {x!r}")
                elif type(x) is not str:
                    raise FactsError(f"relation '{name}' column '{cname}' needs a symbol, "
                                     f"got {x!r}")

    # -- walk --------------------------------------------------------------------
    def _export(self) -> None:
        with paused():
            drive(self._walk_op(self.module.module_op, -1, 0))
            self._check()

    def _walk_op(self, op: Op, block: int, index: int) -> Generator[Any, None, int]:
        """Rows of ``op`` and, in pre-order, of every op nested in it (a generator that
        yields the walk of each nested op: ``frontend/trampoline.py``, any depth)."""
        o = self.op_id[op] = len(self.ops)
        self.ops.append(op)
        self._add("op", o, op.name, block, index)
        self._add("op_loc", o, op.loc.file, op.loc.line, op.loc.col)
        self._add("op_text", o, self._source_line(op))
        for i, v in enumerate(op.operands):
            self._add("operand", o, i, self._val(v))
        for r in op.results:
            self._add("result", self._val(r), o, r.index)
        for k, a in op.attrs.items():
            self._add("attr", o, k, _attr_symbol(a))
            if isinstance(a, SymbolRefAttr):
                self._add("symbol_ref", o, k, a.root)
            elif k == "sym_name" and isinstance(a, StringAttr):
                self._add("symbol_def", o, a.value)
        for i, b in enumerate(op.successors):
            self._add("successor", o, i, self._block(b))
            base = op.successor_operand_range(i)[0]
            for j in range(len(op.successor_operands(i))):
                self._add("successor_operand", o, i, base + j, j)
        self._op_specific(op, o)
        for ri, region in enumerate(op.regions):
            r = self.region_id[region] = len(self.region_id)
            self._add("region", r, o, ri)
            for bi, blk in enumerate(region.blocks):
                b = self._block(blk)
                self._add("block", b, r, bi)
                for a in blk.args:
                    self._add("block_arg", self._val(a), b, a.index)
                for k, nested in enumerate(blk.ops):
                    yield self._walk_op(nested, b, k)
        self._add("op_span", o, len(self.ops) - 1)
        return o

    def _opaque(self, n: int) -> int:
        """The value id (< -1, defined by no fact) standing for the number ``n``."""
        return self._opaque_ids.setdefault(n, -2 - len(self._opaque_ids))

    def _block(self, b: Block) -> int:
        i = self.block_id.get(b)
        if i is None:
            i = self.block_id[b] = len(self.block_id)
        return i

    def _value_rows(self, v: Value, i: int) -> None:
        if v.name is not None:
            self._add("value_name", i, v.name)
        self._add("value_type", i, str(v.type))
        if T.is_tensor(v.type):
            self._add("tensor", i)
        if T.is_memref(v.type):
            self._add("memref", i)
        shape = getattr(v.type, "shape", None)
        if shape is not None and (T.is_tensor(v.type) or T.is_memref(v.type)
                                  or isinstance(v.type, T.VectorType)):
            self._add("value_rank", i, len(shape))
            for d, n in enumerate(shape):
                self._add("shape_dim", i, d, -1 if n is None or not 0 <= n <= INT32_MAX else n)
        n = T.static_bytes(v.type)
        if n is not None and n <= INT32_MAX:
            self._add("type_bytes", i, n)

    def _source_line(self, op: Op) -> str:
        """The op's source line (for messages), at most ``TEXT_MAX`` characters."""
        if self._lines is None:
            self._lines = getattr(self.module, "source_lines", None) or []
        ln = op.loc.line
        if 1 <= ln <= len(self._lines):
            lines = self._lines
            line = lines.head(ln - 1, TEXT_MAX + 1) if isinstance(lines, SourceLines) \
                else lines[ln - 1][:TEXT_MAX + 1]
            line = line.strip()
            return line if len(line) <= TEXT_MAX else line[:TEXT_MAX - 3] + "..."
        return op.name

    # -- op-specific structure ---------------------------------------------------
    def _op_specific(self, op: Op, o: int) -> None:
        """The rows the op's model asks for (frontend/op_table.py), and the transfer
        dimensions of any op with a ``permutation_map``."""
        name = op.name
        for what in EXPORTS.get(name, ()):
            self._EXPORTERS[what](self, op, o)
        lead = SLICE_LEADING.get(name)
        if lead is not None:
            self._slice(op, o, lead)
        if "permutation_map" in op.attrs:
            self._transfer_dims(op, o)

    def _call(self, op: Op, o: int) -> None:
        callee = op.attrs.get("callee")
        if callee is not None:
            self._add("call", o, callee.root)

    def _const_int(self, op: Op, o: int) -> None:
        a = op.attrs.get("value")
        if isinstance(a, IntegerAttr) and INT32_MIN <= a.value <= INT32_MAX:
            self._add("const_int", o, a.value)

    def _transfer_dims(self, op: Op, o: int) -> None:
        from .dialects.vector import map_parts

        parts = map_parts(op.attrs["permutation_map"])
        if parts is not None:
            dims, results = parts
            for k, r in enumerate(results):
                if r in dims:
                    self._add("transfer_dim", o, k, dims.index(r))

    def _forall_bounds(self, op: Op, o: int) -> None:
        from .dialects.scf import forall_parts

        f = forall_parts(op)
        for kind, vals in (("lb", f.lbs), ("ub", f.ubs), ("step", f.steps)):
            for d, x in enumerate(vals):
                if isinstance(x, int):
                    if INT32_MIN <= x <= INT32_MAX:
                        self._add("loop_bound_static", o, kind, d, x)
                    else:
                        self._add("loop_bound_dynamic", o, kind, d, self._opaque(x))
                else:
                    self._add("loop_bound_dynamic", o, kind, d, self._val(x))

    def _func(self, op: Op, o: int) -> None:
        sym = op.attrs.get("sym_name")
        vis = op.attrs.get("sym_visibility")
        is_decl = int(not op.regions or not op.regions[0].blocks)
        self._add("func", o, getattr(sym, "value", str(sym)),
                  getattr(vis, "value", "public") if vis is not None else "public", is_decl)
        arg_attrs = op.attrs.get("arg_attrs")
        for i, d in enumerate(getattr(arg_attrs, "elems", ()) or ()):
            if isinstance(d, DictAttr):
                for k, v in d.items:
                    self._add("arg_attr", o, i, k, str(v))

    def _linalg(self, op: Op, o: int) -> None:
        ins, outs = linalg_ins_outs(op)
        n_ins, n_outs = len(ins), len(outs)
        for i in range(n_ins):
            self._add("dps_input", o, i)
        for k in range(n_outs):
            self._add("dps_output", o, n_ins + k)
            if k < len(op.results):
                self._add("dps_init", o, n_ins + k, k)
        # payload block arguments: one per operand (generic, reduce), or one per input
        # only (linalg.map: its init is never read); named ops have an implicit payload
        # whose reads their model states (sem_dps)
        payload = PAYLOAD_ARGS.get(op.name)
        if op.regions and op.regions[0].blocks and payload is not None:
            args = op.regions[0].entry.args
            for i, a in enumerate(args[: n_ins + n_outs if payload == "all" else n_ins]):
                if a.uses:
                    self._add("payload_reads", o, i)

    def _identity_maps(self, op: Op, o: int) -> None:
        if self._all_parallel(op):
            maps = op.attrs.get("indexing_maps")
            for i, m in enumerate(getattr(maps, "elems", ()) or ()):
                if _is_identity_map(getattr(m, "text", "")):
                    self._add("elementwise_operand", o, i)

    @staticmethod
    def _all_parallel(op: Op) -> bool:
        its = op.attrs.get("iterator_types")
        return all("parallel" in str(x) for x in getattr(its, "elems", ()) or ())

    def _slice(self, op: Op, o: int, leading: int) -> None:
        operands = op.operands
        pos = leading
        for kind, key in (("offset", "static_offsets"), ("size", "static_sizes"),
                          ("stride", "static_strides")):
            arr = op.attrs.get(key)
            if not isinstance(arr, DenseArrayAttr):
                continue
            for d, n in enumerate(arr.values):
                if n == DYNAMIC:
                    self._add("slice_dynamic", o, kind, d, self._val(operands[pos]))
                    pos += 1
                elif INT32_MIN <= n <= INT32_MAX:
                    self._add("slice_static", o, kind, d, n)
                else:
                    self._add("slice_dynamic", o, kind, d, self._opaque(n))

    #: the exporters frontend/op_table.py names, by name
    _EXPORTERS = {"function": lambda self, op, o: self._func(op, o),
                  "call": lambda self, op, o: self._call(op, o),
                  "dps": lambda self, op, o: self._linalg(op, o),
                  "identity_maps": lambda self, op, o: self._identity_maps(op, o),
                  "const_int": lambda self, op, o: self._const_int(op, o),
                  "loop_bounds": lambda self, op, o: self._forall_bounds(op, o)}

    # -- output ------------------------------------------------------------------
    def write_tsv(self, out_dir: Path) -> list[Path]:
        """Write one ``<rel>.facts`` per schema relation (empty files included)."""
        out_dir.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, rows in self.rows.items():
            p = out_dir / f"{name}.facts"
            p.write_text("".join("\t".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
            paths.append(p)
        return paths


def _attr_symbol(a: Attr) -> str:
    """An attribute's text, or for a long one (a dense literal) a short stand-in that
    still tells different values apart: its start, length and a SHA-256 prefix."""
    s = str(a)
    if len(s) <= ATTR_MAX:
        return s
    import hashlib  # only for long attributes

    digest = hashlib.sha256(s.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{s[:96]}... ({len(s)} characters, sha256 {digest})"


def _is_identity_map(text: str) -> bool:
    """``(d0, d1) -> (d0, d1)`` with no symbols."""
    if "->" not in text or "[" in text.split("->")[0]:
        return False
    lhs, rhs = (s.strip() for s in text.split("->", 1))
    norm = lambda s: [x.strip() for x in s.strip("()").split(",") if x.strip()]  # noqa: E731
    return norm(lhs) == norm(rhs)


def export(module: Module) -> Facts:
    return Facts(module)


def read_tsv(path: Path, rel: Relation) -> Iterable[tuple]:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        cells = line.split("\t")
        if len(cells) != rel.arity:
            raise FactsError(f"{path}:{n}: '{rel.name}' expects {rel.arity} columns, found {len(cells)}")
        yield tuple(int(c) if t == "number" else c for c, (_, t) in zip(cells, rel.columns, strict=True))
