"""Rewrite tensor IR into memref IR from the One-Shot (or optimal) in-place decisions.

The rewrite walks every function once, in program order, keeping ``buf``: the memref
value holding each tensor value. Each tensor op becomes memref ops inserted before it
(``tensor.empty`` -> ``memref.alloc``, ``tensor.extract_slice`` -> ``memref.subview``,
...); the tensor op is dropped at the end. Ops that only carry tensors (linalg ops,
``scf.for/if/while``, ``func.func``, ``func.call``, terminators) are kept and retyped.

Out-of-place decisions: an operand the analysis put out of place gets a fresh
``memref.alloc`` (plus a ``memref.copy`` of the old contents unless the op does not read
them). Loops: a yielded buffer that is not the loop-carried buffer itself is copied into
a fresh allocation (or yielded as is when it is a fresh allocation of the loop body, or
an scf.if / scf.index_switch result that is the carried buffer or a fresh allocation on
each path), so a loop iteration never writes a buffer it did not receive. Function boundaries: tensor
arguments/results become memrefs with the identity layout (or the fully dynamic one);
every result stays in the signature, as mlir-opt's One-Shot Bufferize keeps it (a result
that is an argument's buffer is dropped only by the separate
``-drop-equivalent-buffer-results`` stage, :mod:`backend.plan_drop`). Anything not
understood raises a located :class:`UserError` rather than producing wrong IR.
"""

from __future__ import annotations

from bufferlog.engine.greedy import FORCED, PARALLEL, RAW
from bufferlog.frontend import types as T
from bufferlog.frontend.dialects import PRINTERS
from bufferlog.frontend.ir import Block, Module, Op, Value
from bufferlog.frontend.operand_syntax import operand_syntax

from .ir_edit import BlockEdits, walk_ops
from .layout_questions import LayoutQuestions
from .layouts import (  # noqa: F401  (collapsed_type, expanded_type: re-exported)
    BufferizeError,
    collapsed_type,
    dynamic_layout,
    expanded_type,
    identity,
    in_space,
    kept_dims,
    memref_of,
    space_of,
    strides_of,
    subview_type,
    with_space,
)
from .ops import (
    COPY,
    FUNCTION,
    HEAP_ALLOC,
    PASS_THROUGH,
    arith,
    bufferization,
    facts_of,
    has,
    memref,
    model,
)
from .ops.func import functions, symbol
from .ops.memref import strip_casts
from .yield_ownership import decide as decide_yield_ownership

INDEX = T.IndexType()
LAYOUTS = ("identity-layout-map", "fully-dynamic-layout-map", "infer-layout-map")


# -- causes ---------------------------------------------------------------------------

def _named(v: Value, fallback: str) -> str:
    return f"%{v.name}" if v.name else fallback


def own_cause(ip: Op, op: Op) -> str:
    """Why the rewrite of ``ip`` itself makes the allocation or copy ``op`` (no analysis
    decision behind it): a new tensor needs a buffer, a slice insertion writes its source."""
    if has(op, HEAP_ALLOC):
        res = _named(ip.results[0], "its result") if ip.results else "its result"
        if facts_of(ip, "sem_result_no_write"):
            return f"the buffer of {res} = {ip.name}: a new tensor"
        return f"the buffer of {res}: {ip.name} makes a new tensor"
    src = _named(ip.operands[0], "") if ip.operands else ""
    text = getattr(model(ip.name), "own_copy", None)  # the model's words for its own copy
    if text is not None:
        return " ".join(text.format(src).split())
    return f"{ip.name} copies into the buffer of its result"


class _Because:
    """Bufferizer.because: the cause of the ops emitted inside the ``with``."""

    def __init__(self, b, cause: str | None):
        self.b, self.cause = b, cause

    def __enter__(self):
        self.saved = self.b.cause
        if self.cause is not None:
            self.b.cause = self.cause

    def __exit__(self, *exc):
        self.b.cause = self.saved
        return False


# -- the rewrite ------------------------------------------------------------------------

class Bufferizer:
    def __init__(self, module: Module, facts, an, dec, layout: str = "identity-layout-map",
                 allow_unknown_ops: bool = False, function_boundaries: bool = True,
                 unknown_layout: str = "fully-dynamic-layout-map", engine: str = "auto",
                 rules_dir=None):
        self.m, self.an, self.dec, self.layout = module, an, dec, layout
        self.engine, self.rules_dir = engine, rules_dir  # for the loop-yield stage's rules
        self.layouts = LayoutQuestions(engine, rules_dir)  # rules/layouts.dl: forced copies
        self.allow_unknown_ops, self.function_boundaries = allow_unknown_ops, function_boundaries
        self.unknown_layout = unknown_layout
        self.facts, self.op_id = facts, facts.op_id
        self.buf: dict[Value, Value] = {}
        self.dead: list[Op] = []
        self.globals: dict[tuple[str, str], str] = {}
        self.ip: Op | None = None  # insertion point: new ops go before it
        self.funcs = {symbol(f): f for f in functions(module)}
        self.edits = BlockEdits()
        self.cause: str | None = None  # why the ops emitted now exist (debug locations)
        # copy insertion (rules/analysis/copies.dl, derived with the decisions)
        final = getattr(an, "final", None)  # the certificate run's AnalysisOutputs
        self.copy_contents = {(t.o, t.i) for t in final.copy_contents} if final else set()
        self.copy_to_result = {(t.o, t.i): t.r for t in final.copy_to_result} if final else {}
        self.no_contents = {t.v for t in final.no_contents} if final else set()
        # a loop's or forall's constant init copied (rules/analysis/copies.dl)
        self.constant_init = {(t.o, t.i) for t in final.constant_init_copy} if final else set()
        self.made_for: dict[Value, Op] = {}  # a fresh buffer -> the input op it was made for
        self.loop_slots: list = []  # carried buffers the loop-yield stage decides (yield_ownership.py)
        self.stands_for: Op | None = None  # the input op new ops stand for, when not the one at ip

    # .. building helpers
    def put(self, op: Op) -> Op:
        """Insert the new op ``op`` (made by a builder of backend/ops) before the insertion
        point: it takes the location of the input op being rewritten, the current cause
        (or, for an allocation or copy the rewrite makes of its own, :func:`own_cause`),
        and stands for that input op in the map to the input (backend/output_map.py); an op
        written elsewhere than before its input op (``stands_for``) stands for that one."""
        src = self.stands_for or self.ip
        op.loc = src.loc
        cause = self.cause
        if cause is None and (has(op, HEAP_ALLOC) or has(op, COPY)):
            cause = own_cause(src, op)
        op.src_loc, op.name_loc, op.cause = src.src_loc, src.name_loc, cause
        op.origin = getattr(src, "origin", src)  # the input op it stands for
        return self.edits.insert_before(self.ip, op)

    def emit(self, name, operands=(), types=(), attrs=None) -> Op:
        """A new op of kind ``name`` (another op's, passed on) before the insertion point."""
        return self.put(Op(name, list(operands), list(types), attrs or {}))

    def const_index(self, n: int) -> Value:
        return self.put(arith.constant_index(n)).result

    def fail(self, op: Op, msg: str):
        raise BufferizeError(msg, op.loc if op.loc.line else None)

    def refuse(self, op: Op, msg: str):
        """Refuse ``op`` as mlir-opt does: its message, at the op's name (after ``%r =``)."""
        loc = op.name_loc or op.loc
        raise BufferizeError(msg, loc if loc.line else None)

    def is_t(self, v: Value) -> bool:
        """A tensor value (also one whose type was already turned into a memref)."""
        return T.is_tensor(v.type) or v in self.buf

    def t_use(self, op: Op, i: int) -> bool:
        """Operand ``i`` of ``op`` was a tensor in the input (a memref operand may hold a
        value retyped in place, e.g. a function argument reached through ``to_buffer``)."""
        return i in self.tensor_operands.get(op, ())

    def B(self, v: Value) -> Value:
        b = self.buf.get(v)
        if b is None and v in self.boundary_at:
            b = self.buf[v] = self.to_buffer(v)
        if b is None:
            owner = getattr(v, "op", None)
            raise BufferizeError(f"bufferize: no buffer for a tensor value"
                                 f"{' defined by ' + owner.name if owner else ''}",
                                 (owner or self.ip).loc)
        return b

    def alloc_like(self, b: Value, like=None) -> Value:
        """A fresh identity-layout buffer with the shape of buffer ``b``, in the memory
        space of ``b`` (or of memref type ``like``)."""
        t = b.type
        dyn = [self.put(memref.dim(b, self.const_index(i))).result
               for i, d in enumerate(t.shape) if d is None]
        return self.alloc(in_space(T.MemRefType(t.shape, t.elem), t if like is None else like), dyn)

    def alloc(self, t, dyn=()) -> Value:
        b = self.put(memref.alloc(t, dyn)).result
        self.made_for[b] = self.ip
        return b

    def because(self, cause: str | None):
        """``with self.because(text):`` the ops emitted inside name ``text`` as their cause."""
        return _Because(self, cause)

    def copy(self, src: Value, dst: Value) -> None:
        self.put(memref.copy(src, dst))

    def cast(self, b: Value, t) -> Value:
        return b if b.type == t else self.put(memref.cast(b, t)).result

    def to_type(self, b: Value, t) -> Value:
        """``b`` as a value of memref type ``t``: a cast when rules/layouts.dl says one
        can make that type, else a copy."""
        if b.type == t:
            return b
        why = self.layouts.cast_blocked(b.type, t)
        if why is None:
            return self.cast(b, t)
        if isinstance(b.type, T.UnrankedMemRefType):
            self.fail(self.ip, "bufferize: cannot pass an unranked buffer where a ranked one is expected")
        with self.because(self.cause or f"copy into the layout {t} the {self.ip.name} takes: "
                          f"a cast cannot turn {b.type} into it ({why} differs)"):
            return self.cast(self.fresh_copy(b, t), t)

    def fresh_copy(self, b: Value, like=None) -> Value:
        n = self.alloc_like(b, like)
        self.copy(b, n)
        return n

    def operand_buffer(self, op: Op, i: int) -> Value:
        """The buffer op may write for operand ``i``: its own, or a fresh one when the
        analysis put the operand out of place, with a copy of the old contents when
        ``copy_contents`` (rules/analysis/copies.dl) says so."""
        v = op.operands[i]
        b = self.B(v)
        if self.dec.inplace.get((self.op_id.get(op, -1), i), True):
            return b
        ranked = strip_casts(b) if isinstance(b.type, T.UnrankedMemRefType) else b
        # (an unranked buffer: copy the ranked one it was cast from)
        if isinstance(ranked.type, T.UnrankedMemRefType):
            self.fail(op, "bufferize: out-of-place unranked operand")
        saved, self.cause = self.cause, self.copy_cause(op, i)
        try:
            n = self.alloc_like(ranked)
            if (self.op_id.get(op, -1), i) in self.copy_contents:
                self.copy(ranked, n)
            elif self.uninit(v):
                self.undefined(n)
        finally:
            self.cause = saved
        return self.cast(n, b.type) if ranked is not b else n

    def copy_cause(self, op: Op, i: int) -> str:
        """Why operand ``i`` of ``op`` gets a fresh buffer: the analysis' conflict."""
        from bufferlog.engine.causes import raw_words

        u = (self.op_id.get(op, -1), i)
        c = self.dec.conflicts.get(u)
        what = f"out-of-place {operand_syntax(op, i)} of {op.name}"
        an = self.an
        if c is None:
            return f"{what}: the strategy's choice (in place would not conflict)"
        if c.kind == RAW and c.read is not None and c.write is not None:
            return f"{what}: in place, {raw_words(an, c.write[0], c.read[0])}"
        if c.kind == PARALLEL:
            return (f"{what}: in place, every iteration of the scf.forall would write the one "
                    "buffer defined outside it")
        if c.kind == FORCED:
            return f"{what}: forced by a must_copy rule"
        if c.definition is not None:
            return f"{what}: in place, it would write into {self.read_only(c.definition)}"
        return f"{what}: {c.kind}"

    def read_only(self, v: int) -> str:
        """The read-only buffer of value id ``v`` in words."""
        an = self.an
        from bufferlog.engine.causes import at

        if v in an.result_of:
            o, _ = an.result_of[v]
            return f"the read-only buffer of the {an.name[o]} at {at(an, o)}"
        b, i = an.bbarg_of[v]
        o = an.region_parent[an.block_region[b]]
        if o in an.func_ops:
            return f"the read-only argument #{i} of @{an.func_sym[o]}"
        return f"the read-only block argument #{i} of the {an.name[o]} at {at(an, o)}"

    def uninit(self, v: Value) -> bool:
        """``v`` is a fresh tensor without contents (``no_contents``: tensor.empty,
        alloc_tensor without copy): a copy of it would copy nothing."""
        return self.facts.value_id.get(v) in self.no_contents

    # .. driver
    def run(self) -> None:
        from .output_map import anchors, record, snapshot

        self.tensor_values = snapshot(self.m)
        self.passes: list[tuple[Op, Value]] = []  # (insert op, its in-place tile)
        self.tensor_operands = {op: {i: v.type for i, v in enumerate(op.operands) if T.is_tensor(v.type)}
                                for op in walk_ops(self.m)}
        self.boundary_at: dict[Value, Op] = {}  # tensors left as such -> where to_buffer goes
        self.as_tensors: dict[tuple[Value, Block], Value] = {}
        self.kept: set[Op] = set()  # ops left on tensors (unknown ops, boundary casts)
        self.tensor_ops = {op for op, ts in self.tensor_operands.items()
                           if ts or any(T.is_tensor(r.type) for r in op.results)}
        self.state: dict[str, str] = {}
        self.recursive: set[str] = set()  # functions called before their rewrite ended
        for f in functions(self.m):  # each function's model bufferizes it, callees first
            model(f.name).rewrite(self, f)
        self.edits.flush()
        anchor = anchors(self.dead)
        for op in reversed(self.dead):
            self.edits.remove(op)
        self.edits.flush()
        # what each loop run passes on as it is, and what it copies (rules/yield_ownership.dl)
        decide_yield_ownership(self, self.loop_slots, self.engine, self.rules_dir)
        record(self, list(walk_ops(self.m)), anchor)
        for op in walk_ops(self.m):
            if has(op, FUNCTION) or op in self.kept:
                continue
            for v in [*op.operands, *op.results]:
                if T.is_tensor(v.type):
                    self.fail(op, f"bufferize: unsupported op '{op.name}' on tensors")

    def block(self, blk) -> None:
        """Bufferize the ops of ``blk`` and, nested, of their regions, with an explicit
        stack: handlers of region ops are generators that yield each block of their
        regions to be bufferized before they go on (no recursion, any nesting depth)."""
        stack = [self._ops_of(blk)]
        while stack:
            try:
                stack.append(self._ops_of(next(stack[-1])))
            except StopIteration:
                stack.pop()

    def _ops_of(self, blk):
        ops = list(blk.ops)
        for k, op in enumerate(ops):
            self.ip = op
            self.next_op = ops[k + 1] if k + 1 < len(ops) else None
            nested = self.visit(op)
            if nested is not None:
                yield from nested

    def visit(self, op: Op):
        """Bufferize ``op``; for an op with regions, return the generator that yields its
        blocks (see :meth:`block`)."""
        tensors = op in self.tensor_ops
        m = model(op.name)  # the op's model in the registry (backend/ops)
        if m is not None and m.rewrite is not None and (tensors or getattr(m, "always", False)):
            return m.rewrite(self, op)
        if tensors and self.op_id.get(op) in self.an.unknown:
            return self.unknown(op)
        if tensors and not (m is not None and m.has(PASS_THROUGH)):
            if self.user_op(op):
                return self.declared(op)
            self.fail(op, f"bufferize: unsupported op '{op.name}' on tensors")
        return self.regions_of(op) if op.regions else None

    def regions_of(self, op: Op):
        """The blocks of an op left as it is; tensor block arguments (only unknown ops have
        them here) stay tensors."""
        for r in op.regions:
            for b in r.blocks:
                self.leave_on_tensors(b)
                yield b
                self.ip = op

    # .. tensors left on tensors: unknown ops (allow-unknown-ops), function boundaries off
    def leave_on_tensors(self, blk: Block) -> None:
        """The tensor arguments of ``blk`` stay tensors: a use that needs their buffer gets
        a ``to_buffer`` at the start of the block (mlir's layout for unknown types)."""
        for a in blk.args:
            if T.is_tensor(a.type) and blk.ops:
                self.boundary_at[a] = blk.ops[0]

    def to_buffer(self, v: Value) -> Value:
        """``bufferization.to_buffer`` of tensor ``v`` where ``v`` becomes available, with
        the fully dynamic layout (the identity one with
        ``unknown-type-conversion=identity-layout-map``), as mlir-opt."""
        saved, self.ip = self.ip, self.boundary_at[v]
        t = memref_of(v.type, self.unknown_layout)
        op = self.put(bufferization.to_buffer_op(v, t))
        self.kept.add(op)
        self.ip = saved
        return op.result

    def as_tensor(self, op: Op, i: int) -> Value:
        """Tensor operand ``i`` of an op left on tensors: the tensor itself when it never
        got a buffer, else a ``bufferization.to_tensor`` of its buffer (one per block)."""
        v = op.operands[i]
        if v in self.boundary_at:
            return v
        b = self.B(v)
        key = (b, op.parent)
        if key not in self.as_tensors:
            t = self.put(bufferization.to_tensor_op(b, self.tensor_operands[op][i]))
            self.kept.add(t)
            self.as_tensors[key] = t.result
        return self.as_tensors[key]

    def unknown(self, op: Op):
        """An op without bufferization semantics (mlir's unknown op) stays on tensors with
        ``allow-unknown-ops``: its tensor operands become ``to_tensor``s of their buffers,
        its tensor results (and its regions' block arguments) get a ``to_buffer`` where a
        bufferized op needs their buffer. Without the option it is an error, as in mlir-opt."""
        if not self.allow_unknown_ops and not self.boundary_off(op):
            bad = self.first_unknown(op)
            self.fail(bad, f"'{bad.name}' op was not bufferized (no bufferization semantics: declare "
                           "them in a --rules file, or keep it on tensors with allow-unknown-ops)")
        self.kept.add(op)
        op.set_operands([self.as_tensor(op, i) if self.t_use(op, i) else v
                         for i, v in enumerate(op.operands)])
        for r in op.results:
            if T.is_tensor(r.type) and self.next_op is not None:
                self.boundary_at[r] = self.next_op
        return self.regions_of(op) if op.regions else None

    def boundary_off(self, op: Op) -> bool:
        """``op`` is a call or return left on tensors (function boundaries off)."""
        return not self.function_boundaries and bool(facts_of(op, "sem_boundary"))

    def first_unknown(self, op: Op) -> Op | None:
        """The unknown op mlir-opt reports for ``op``: the first in post-order (nested ops
        before the op holding them)."""
        for r in op.regions:
            for b in r.blocks:
                for o in b.ops:
                    found = self.first_unknown(o)
                    if found is not None:
                        return found
        return op if self.op_id.get(op) in self.an.unknown and not self.boundary_off(op) else None

    def done(self, op: Op, *bufs: Value) -> None:
        for r, b in zip(op.results, bufs, strict=True):
            self.buf[r] = b
        self.dead.append(op)

    # .. allocation-like ops
    @staticmethod
    def undefined(b: Value) -> Value:
        """``b``, an allocation whose contents the input leaves unspecified (the output
        certificate lets a read see it before any write: the input reads garbage too)."""
        b.op.tv_undef = True
        return b

    # .. slices
    def subview(self, b: Value, offs, sizes, strides, result_shape) -> Value:
        rt = subview_type(b.type, offs, sizes, strides, result_shape)
        return self.put(memref.subview(b, offs, sizes, strides, rt)).result

    def result_copy(self, op, v: Value) -> Value:
        """The result buffer of a view op (slice, expand_shape) whose result is view
        ``v``: ``v`` itself, or when the analysis put the operand out of place, a fresh
        copy of the view rather than of the whole source (as MLIR's tensor copy
        insertion does for an op that only creates one alias: the result is smaller)."""
        if self.dec.inplace.get((self.op_id.get(op, -1), 0), True):
            return v
        return self.copy_instead(op, 0, op.result, v)

    def copy_instead(self, op: Op, i: int, r: Value, v: Value) -> Value:
        """A fresh buffer for result ``r`` of ``op`` (whose buffer is ``v``), copied in place
        of out-of-place operand ``i`` when ``copy_contents`` says the contents matter (as
        MLIR's canOmitTensorCopy: the operand has contents, and its use or ``r`` through
        aliases is read)."""
        saved, self.cause = self.cause, self.copy_cause(op, i)
        try:
            n = self.alloc_like(v)
            if (self.op_id.get(op, -1), i) in self.copy_contents:
                self.copy(v, n)
            elif self.uninit(op.operands[i]):
                self.undefined(n)
        finally:
            self.cause = saved
        return n

    # .. ops known only from rules (``sem_*`` facts in ops.dl or a ``--rules`` overlay)
    def user_op(self, op: Op) -> bool:
        """An op of a dialect bufferlog does not know whose semantics the rules declare
        (a known dialect's op without a handler stays unsupported: its buffer form is
        fixed by MLIR, not by our convention)."""
        known = {n.split(".", 1)[0] for n in PRINTERS}
        return (op.name.split(".", 1)[0] not in known and self.op_id.get(op) is not None
                and self.op_id[op] not in self.an.unknown)

    def declared(self, op):
        """Destination style on buffers: every tensor operand becomes its buffer (a fresh
        copy when the analysis put a written operand out of place); every tensor result
        must be declared ``equivalent`` to an operand (``sem_alias``) and is replaced by
        that operand's buffer, so the op loses its tensor results, as linalg ops do."""
        o = self.op_id[op]
        if op.regions:
            self.fail(op, f"bufferize: '{op.name}' has regions; only region-free ops can be "
                          "bufferized from sem_* facts")
        new, by_res = [], {}
        for i, v in enumerate(op.operands):
            if not self.t_use(op, i):
                new.append(v)
                continue
            b = self.operand_buffer(op, i) if (o, i) in self.an.writes else self.B(v)
            new.append(b)
            for vid, kind in self.an.aliases.get((o, i), ()):
                if kind == "equivalent":
                    by_res.setdefault(vid, b)
        bufs = []
        for k, r in enumerate(op.results):
            if not T.is_tensor(r.type):
                continue
            b = by_res.get(self.facts.value_id.get(r))
            if b is None:
                self.fail(op, f"bufferize: result #{k} of '{op.name}' is equivalent to no operand "
                              "(declare sem_alias(\"" + op.name + "\", operand, result, "
                              "\"equivalent\") to bufferize it in destination style)")
            if self.layouts.cast_blocked(b.type, memref_of(r.type, self.layout)) is not None:
                self.fail(op, f"bufferize: result #{k} of '{op.name}' has another shape than its operand")
            bufs.append((r, b))
        op.set_operands(new)
        for r, b in bufs:
            self.buf[r] = b
        op.results = [r for r in op.results if not T.is_tensor(r.type)]
        for k, r in enumerate(op.results):
            r.index = k

    def inconsistent_block_arg(self, blk) -> None:
        """Buffers of two memory spaces flow into one block argument: refused as mlir-opt
        refuses it, with its words, at the op holding the block."""
        holder = blk.parent_op
        self.refuse(holder, f"'{holder.name}' op incoming operands of block argument have "
                          "inconsistent memory spaces")

    def block_args(self, blk) -> None:
        """Memref types of ``blk``'s tensor arguments: the identity layout when every
        buffer forwarded so far (from earlier blocks) has it, else the fully dynamic
        layout (MLIR's join); the recorded and any later operands are cast to it (or
        copied when a cast cannot work, e.g. a strided view into an identity argument on
        a back edge)."""
        saved = self.ip
        pend = self.pending.pop(blk, [])
        for k, a in enumerate(blk.args):
            if not T.is_tensor(a.type):
                continue
            ins = [(op, i) for op, i, kk in pend if kk == k]
            t = memref_of(a.type)
            if not isinstance(t, T.UnrankedMemRefType) and not all(identity(op.operands[i].type) for op, i in ins):
                t = T.MemRefType(t.shape, t.elem, dynamic_layout(t.rank))
            spaces = {str(space_of(op.operands[i].type)): space_of(op.operands[i].type) for op, i in ins}
            if len(spaces) > 1:
                self.inconsistent_block_arg(blk)
            if spaces and not isinstance(t, T.UnrankedMemRefType):  # where its buffers live
                t = with_space(t, next(iter(spaces.values())))
            for op, i in ins:
                self.ip = op
                op.set_operand(i, self.to_type(op.operands[i], t))
            a.type = t
            self.buf[a] = a
        self.ip = saved


def bufferize(module: Module, strategy: str = "oneshot", dealloc: bool = True,
              layout: str = "identity-layout-map", engine: str = "auto",
              rules_dir: str | None = None, analysis: tuple | None = None,
              options=None, plan=None) -> Module:
    """Bufferize ``module`` in place (and return it); with ``dealloc`` also insert the
    deallocations of :mod:`bufferlog.backend.dealloc`. ``analysis`` is the
    ``(facts, analysis, decisions)`` triple of ``engine.oneshot.analyze_module`` for this
    very module, when the caller already has it; else it is computed here (with the
    ``rules_dir`` overlay). ``options``: mlir-opt's One-Shot options
    (``engine.options.OneShotOptions``: allow-unknown-ops, bufferize-function-boundaries,
    unknown-type-conversion). ``plan``: the memory planning stages
    (``backend.plan.PlanOptions``, all on by default)."""
    from bufferlog.engine.oneshot import analyze_module
    from bufferlog.engine.options import OneShotOptions

    options = options or OneShotOptions()
    facts, an, dec = analysis or analyze_module(module, strategy, engine, rules_dir, options=options)
    Bufferizer(module, facts, an, dec, layout, options.allow_unknown_ops,
               options.bufferize_function_boundaries, options.unknown_type_conversion,
               engine, rules_dir).run()
    from bufferlog.backend.plan import PlanOptions, before_dealloc

    plan = plan or PlanOptions()  # memory planning stages (backend/plan.py)
    before_dealloc(module, plan)
    if not dealloc:
        return module
    from bufferlog.backend.dealloc import deallocate

    deallocate(module, "memref-dealloc", engine, rules_dir, plan.free_at_last_use, plan.reuse)
    return module
