"""The IR model: an MLIR-like in-memory graph of modules, ops, regions, blocks and values.

Everything downstream (facts export, analysis glue, backend rewriting, printing) works on
these classes. They mirror MLIR's own structure so that what MLIR documents carries over:

* An ``Op`` has a ``name`` (``"tensor.extract"``), ``operands`` (Values), ``results``
  (OpResults, each with a type), ``attrs`` (an ordered ``dict[str, Attr]``: inherent
  properties *and* discardable attributes, as in the generic form), ``regions`` and
  ``successors`` (Blocks). Successor operands are ordinary operands, segmented by the
  op's ``operandSegmentSizes`` where MLIR does so (``cf.cond_br``); use
  ``Op.successor_operands(i)``.
* A ``Block`` holds block arguments and ops; a ``Region`` holds blocks.
* ``Value``s know their type and their uses (``Value.uses`` -> list of ``Use``).
* Types and attributes are immutable objects whose ``str()`` is valid MLIR text
  (see ``frontend/types.py`` and ``frontend/attrs.py``).

Custom-syntax specifics that matter only for printing (e.g. which keyword form was used)
live in attributes under their MLIR property names, so a printer can reproduce the
custom syntax from the op alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from bufferlog.core.records import value_class

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any


@value_class
class Loc:
    """A source location: file, 1-based line and column. ``file`` may be ``"-"`` (stdin)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


UNKNOWN_LOC = Loc("<unknown>", 0, 0)


class Value:
    """An SSA value. ``name`` is the textual name it was parsed with (without ``%``),
    used as a printing hint only; printers may rename."""

    __slots__ = ("type", "name", "uses", "__weakref__")

    def __init__(self, type: Any, name: str | None = None):
        self.type = type
        self.name = name
        self.uses: list[Use] = []

    @property
    def owner(self) -> Op | Block:  # pragma: no cover - overridden
        raise NotImplementedError

    def replace_all_uses_with(self, new: Value) -> None:
        for use in list(self.uses):
            use.set(new)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} %{self.name} : {self.type}>"


class OpResult(Value):
    __slots__ = ("op", "index")

    def __init__(self, type: Any, op: Op, index: int, name: str | None = None):
        super().__init__(type, name)
        self.op = op
        self.index = index

    @property
    def owner(self) -> Op:
        return self.op


class BlockArg(Value):
    __slots__ = ("block", "index", "loc")

    def __init__(self, type: Any, block: Block, index: int, name: str | None = None,
                 loc: Loc | None = None):
        super().__init__(type, name)
        self.block = block
        self.index = index
        self.loc = loc

    @property
    def owner(self) -> Block:
        return self.block


class Use:
    """The ``index``-th operand of ``op``, currently holding ``value``."""

    __slots__ = ("op", "index", "value")

    def __init__(self, op: Op, index: int, value: Value):
        self.op = op
        self.index = index
        self.value = value
        value.uses.append(self)

    def set(self, new: Value) -> None:
        self.value.uses.remove(self)
        self.value = new
        new.uses.append(self)

    def __repr__(self) -> str:
        return f"<Use {self.op.name}#{self.index} of %{self.value.name}>"


class Op:
    """An operation. Create with ``Op(name, operands, result_types, attrs, regions,
    successors, loc)``; results are made from ``result_types``.

    ``src_loc``: the op's own ``loc(...)`` text in the input, if it had one; ``name_loc``:
    the position of its name when results precede it (``loc`` is the first token); ``cause``: why
    a pass created the op (e.g. the conflict behind a copy), printed with debug info as a
    named location around ``loc``; ``made_in``: for a global a rewrite added, the function
    whose rewrite added it."""

    src_loc: str | None = None
    cause: str | None = None
    name_loc: Loc | None = None  # where the op's name starts, when results come first
    made_in: Op | None = None

    def __init__(
        self,
        name: str,
        operands: list[Value] | tuple[Value, ...] = (),
        result_types: list[Any] | tuple[Any, ...] = (),
        attrs: dict[str, Any] | None = None,
        regions: list[Region] | None = None,
        successors: list[Block] | None = None,
        loc: Loc = UNKNOWN_LOC,
        result_names: list[str | None] | None = None,
    ):
        self.name = name
        self.attrs: dict[str, Any] = dict(attrs or {})
        self.loc = loc
        self.parent: Block | None = None
        self._uses: list[Use] = [Use(self, i, v) for i, v in enumerate(operands)]
        names = result_names or [None] * len(result_types)
        self.results: list[OpResult] = [
            OpResult(t, self, i, names[i]) for i, t in enumerate(result_types)
        ]
        self.regions: list[Region] = []
        for r in regions or []:
            self.add_region(r)
        self.successors: list[Block] = list(successors or [])

    # -- operands ---------------------------------------------------------------------
    @property
    def operands(self) -> list[Value]:
        return [u.value for u in self._uses]

    @property
    def operand_uses(self) -> list[Use]:
        return list(self._uses)

    def set_operand(self, i: int, v: Value) -> None:
        self._uses[i].set(v)

    def set_operands(self, values: list[Value]) -> None:
        for u in self._uses:
            u.value.uses.remove(u)
        self._uses = [Use(self, i, v) for i, v in enumerate(values)]

    def successor_operands(self, i: int) -> list[Value]:
        """Operands forwarded to successor ``i`` (see :meth:`successor_operand_range`)."""
        lo, hi = self.successor_operand_range(i)
        return self.operands[lo:hi]

    def successor_operand_range(self, i: int) -> tuple[int, int]:
        """Operand indices [lo, hi) forwarded to successor ``i``. Ops with one successor
        forward all operands; ``cf.cond_br``-like ops use ``operandSegmentSizes`` =
        [n_cond, n_succ0, n_succ1, ...]; ``cf.switch`` uses [flag, n_default, n_cases]
        split per case by ``case_operand_segments``."""
        seg = self.attrs.get("operandSegmentSizes")
        cases = self.attrs.get("case_operand_segments")
        if cases is not None and seg is not None and len(seg.values) == 3:
            flag, n_default, _ = seg.values
            if i == 0:
                return flag, flag + n_default
            start = flag + n_default + sum(cases.values[:i - 1])
            return start, start + cases.values[i - 1]
        if seg is not None:
            sizes = list(seg.values)
            lead = len(sizes) - len(self.successors)
            start = sum(sizes[:lead]) + sum(sizes[lead:lead + i])
            return start, start + sizes[lead + i]
        if len(self.successors) == 1:
            return 0, len(self.operands)
        return 0, 0

    # -- structure --------------------------------------------------------------------
    def add_region(self, region: Region) -> Region:
        region.parent = self
        self.regions.append(region)
        return region

    @property
    def result(self) -> OpResult:
        assert len(self.results) == 1, f"{self.name} has {len(self.results)} results"
        return self.results[0]

    @property
    def parent_op(self) -> Op | None:
        if self.parent is None or self.parent.parent is None:
            return None
        return self.parent.parent.parent

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    def walk(self) -> Iterator[Op]:
        """Pre-order walk of this op and every op nested in its regions (an explicit
        stack: any nesting depth)."""
        stack: list[Iterator[Op]] = [iter((self,))]
        while stack:
            op = next(stack[-1], None)
            if op is None:
                stack.pop()
                continue
            yield op
            if op.regions:
                stack.append(o for r in op.regions for b in r.blocks for o in b.ops)

    def erase(self) -> None:
        """Detach from the parent block and drop operand uses. Results must be unused."""
        for r in self.results:
            assert not r.uses, f"erasing {self.name} whose result is still used"
        for u in self._uses:
            u.value.uses.remove(u)
        self._uses = []
        if self.parent is not None:
            self.parent.ops.remove(self)
            self.parent = None

    def __repr__(self) -> str:
        return f"<Op {self.name} at {self.loc}>"


class Block:
    """A basic block: arguments and a list of ops (the last one the terminator, if any)."""

    def __init__(self, arg_types: list[Any] | tuple[Any, ...] = (),
                 arg_names: list[str | None] | None = None, label: str | None = None):
        names = arg_names or [None] * len(arg_types)
        self.args: list[BlockArg] = [
            BlockArg(t, self, i, names[i]) for i, t in enumerate(arg_types)
        ]
        self.ops: list[Op] = []
        self.parent: Region | None = None
        self.label = label  # textual label without '^', printing hint only

    def add_arg(self, type: Any, name: str | None = None, loc: Loc | None = None) -> BlockArg:
        a = BlockArg(type, self, len(self.args), name, loc)
        self.args.append(a)
        return a

    def append(self, op: Op) -> Op:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Op) -> Op:
        op.parent = self
        self.ops.insert(index, op)
        return op

    def insert_before(self, anchor: Op, op: Op) -> Op:
        return self.insert(self.ops.index(anchor), op)

    def insert_after(self, anchor: Op, op: Op) -> Op:
        return self.insert(self.ops.index(anchor) + 1, op)

    @property
    def terminator(self) -> Op | None:
        return self.ops[-1] if self.ops else None

    @property
    def parent_op(self) -> Op | None:
        return self.parent.parent if self.parent else None

    def __repr__(self) -> str:
        return f"<Block ^{self.label} ({len(self.args)} args, {len(self.ops)} ops)>"


class Region:
    def __init__(self, blocks: list[Block] | None = None):
        self.blocks: list[Block] = []
        self.parent: Op | None = None
        for b in blocks or []:
            self.append(b)

    def append(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block:
        return self.blocks[0]


class SourceLines(Sequence[str]):
    """The lines of a parsed text (split at ``\n``, a trailing ``\r`` dropped), found on
    first use and sliced on demand: no copy of the text, and a 50 MB one-line file costs
    one offset."""

    def __init__(self, text: str):
        self.text = text
        self._starts: list[int] | None = None

    def _index(self) -> list[int]:
        if self._starts is None:
            starts, find, i = [0], self.text.find, self.text.find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            if starts[-1] == len(self.text):
                starts.pop()  # no line after a final newline (nor in an empty text)
            self._starts = starts
        return self._starts

    def __len__(self) -> int:
        return len(self._index())

    def span(self, i: int) -> tuple[int, int]:
        """[start, end) of line ``i`` (0-based) in the text."""
        starts, text = self._index(), self.text
        start = starts[i]
        if i + 1 < len(starts):
            end = starts[i + 1] - 1
        else:
            end = len(text) - 1 if text.endswith("\n") else len(text)
        if end > start and text[end - 1] == "\r":
            end -= 1
        return start, end

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        start, end = self.span(i)
        return self.text[start:end]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SourceLines | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking sequence, like list

    def head(self, i: int, n: int) -> str:
        """The first ``n`` characters of line ``i`` (no copy of a long line)."""
        start, end = self.span(i)
        return self.text[start:min(end, start + n)]


class Module:
    """A parsed file. ``body`` is the single block of the (implicit or explicit)
    ``builtin.module``; ``module_op`` is that op. ``aliases`` keeps ``#name = attr`` and
    ``!name = type`` definitions in source order (name -> object) for printing;
    ``resources`` keeps the trailing ``{-# ... #-}`` section verbatim (opaque);
    ``source_lines`` the parsed text, for messages."""

    def __init__(self, module_op: Op, file: str = "-", aliases: dict[str, Any] | None = None,
                 type_aliases: dict[str, Any] | None = None, resources: str | None = None,
                 explicit_module: bool = False, source_lines: Sequence[str] | None = None):
        self.module_op = module_op
        self.file = file
        self.aliases: dict[str, Any] = {} if aliases is None else aliases
        self.type_aliases: dict[str, Any] = {} if type_aliases is None else type_aliases
        self.resources = resources
        self.explicit_module = explicit_module
        self.source_lines: Sequence[str] = [] if source_lines is None else source_lines

    @property
    def body(self) -> Block:
        return self.module_op.regions[0].entry

    def walk(self) -> Iterator[Op]:
        yield from self.module_op.walk()

    def functions(self) -> list[Op]:
        return [op for op in self.walk() if op.name == "func.func"]
