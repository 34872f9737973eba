"""The map from the memref program bufferlog wrote back to its tensor input: what the
certificate of the output (``rules/validate.dl``) needs to check the output against the
input's values.

Recorded on the output's ops (and blocks) right after the rewrite, while the rewrite's
``buf`` map (input tensor value -> the memref holding it) is current; later stages
(planning, deallocation) keep ops and their operand slots, so the tags stay true:

* ``op.origin`` — the input op an output op stands for (set when the rewrite emits it;
  an input op the rewrite keeps stands for itself);
* ``op.tv_use`` — ``[(operand, value)]``: the operand holds the contents of input tensor
  value ``value`` (a key of the input's fact numbering) when the op runs;
* ``op.tv_prod`` — ``[(operand, value)]``: writes through the operand make (part of)
  input value ``value``;
* ``op.tv_def`` — the input values complete once the op has run (a region op: once it
  ends); ``op.tv_def_before`` — those complete when it starts (their input op left no
  output op, or the one it left went away); ``block.tv_def`` — the input block
  arguments complete at the block's start;
* ``op.tv_pass`` — ``[(operand, value)]``: the op writes part of a buffer holding input
  value ``value``, which its input op reads and passes on (the destination of
  ``tensor.insert`` / ``insert_slice``): the rest of the buffer is read here, as that
  value; ``op.tv_pass_view`` — ``[(value, view, into)]``: the same before the op, for an
  ``insert_slice`` whose tile ``view`` already is in place (no op of its own), into the
  values ``into`` (its result);
* ``op.tv_out`` — ``[(result, value)]``: the op's result holds input value ``value`` (what
  a stage that drops a result needs: the value then lives in another buffer);
* ``op.tv_undef`` — an allocation whose contents the input leaves unspecified;
  ``op.tv_parts`` — one the rewrite fills part by part (every part written: its word).

An op the planner or the deallocation adds carries no tag: its writes are foreign to
every input value, which the certificate then checks against every live one.
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.ir import Op, Value

from .ops import view_source
from .ops.memref import strip_casts


def root(v: Value) -> Value:
    """The buffer ``v`` is a view of (views stripped)."""
    for _ in range(10_000):
        o = getattr(v, "op", None)
        src = None if o is None else view_source(o)  # the op's model: mem_view
        if src is None:
            break
        v = o.operands[src]
    return v


def snapshot(module) -> set[Value]:
    """Before the rewrite: the input's tensor values (results and block arguments); on each
    op its tensor operands and results (``op.tv_in``, ``op.tv_res``: the rewrite replaces
    them) and on each block its
    tensor arguments (``block.tv_args``: the rewrite retypes or drops them)."""
    from .ir_edit import walk_ops

    vals: set[Value] = set()
    for op in walk_ops(module):
        res = [r for r in op.results if T.is_tensor(r.type)]
        if res:
            op.tv_res = res
            vals.update(res)
        ins = [(i, v) for i, v in enumerate(op.operands) if T.is_tensor(v.type)]
        if ins:
            op.tv_in = ins
            op.tv_arity = len(op.operands)
        for rg in op.regions:
            for b in rg.blocks:
                args = [a for a in b.args if T.is_tensor(a.type)]
                if args:
                    b.tv_args = args
                    vals.update(args)
    return vals


def anchors(dead: list[Op]) -> dict[Op, Op]:
    """For each op the rewrite drops, the op that follows it in its block and stays (the
    point where its results are complete when no output op stands for it)."""
    gone = set(dead)
    out = {}
    for op in dead:
        blk = op.parent
        if blk is None:
            continue
        ops = blk.ops
        k = ops.index(op) + 1
        while k < len(ops) and ops[k] in gone:
            k += 1
        if k < len(ops):
            out[op] = ops[k]
    return out


def record(bz, ops: list[Op], anchor: dict[Op, Op]) -> None:
    """Tag the output ops ``ops`` (every op of the rewritten module, in program order)
    of Bufferizer ``bz``."""
    vid = bz.facts.value_id
    oid = bz.op_id
    buf = bz.buf
    an = bz.an

    def tensor_values(src: Op) -> list[tuple[int, Value]]:
        return getattr(src, "tv_in", [])

    def made(src: Op) -> list[Value]:
        """The input tensor values input op ``src`` makes: its results and the arguments
        of its regions' blocks."""
        out = list(getattr(src, "tv_res", ()))
        for rg in src.regions:
            for b in rg.blocks:
                out += [a for a in b.args if a in bz.tensor_values]
        return out

    last: dict[Op, Op] = {}
    for op in ops:
        src = getattr(op, "origin", None)
        if src is None and op in oid:
            src = op.origin = op  # an input op kept (retyped)
        if src is None:
            continue
        last[src] = op
        if src in oid:
            op.origin_id = oid[src]
        mem = [(k, x) for k, x in enumerate(op.operands) if T.is_memref(x.type)]
        if not mem:
            continue
        use, prod = [], []
        if src is op and len(op.operands) == getattr(op, "tv_arity", -1):
            # operand slots are the input's own
            s = oid[op]
            for k, _x in mem:
                t = an.tuse.get((s, k))
                if t is not None:
                    use.append((k, t))
                    prod += [(k, r) for r, _kind in an.aliases.get((s, k), ())]
        else:  # the values whose buffer the operand is: that very memref, else its root
            ins = [(vid[v], buf[v]) for _, v in tensor_values(src) if v in buf and v in vid]
            outs = [(vid[v], buf[v]) for v in made(src) if v in buf]
            # an op rebuilt with the input op's operand slots (a call, a structured op):
            # operand k holds the value of the input's operand k, not every value that
            # buffer held (one buffer may hold a slice's value, then the fill written into it)
            same_slots = {i: (vid[v], buf[v]) for i, v in tensor_values(src)
                          if v in buf and v in vid} if op.name == src.name else {}
            for k, x in mem:
                if k in same_slots and _holders(x, [same_slots[k]]):
                    use.append((k, same_slots[k][0]))
                else:
                    use += [(k, t) for t in _holders(x, ins)]
                prod += [(k, t) for t in _holders(x, outs)]
        if src is not op:
            # a write through an operand holding a destination the input op reads and
            # passes on (tensor.insert, insert_slice): the rest of it passes through
            dest = [(vid[v], buf[v]) for i, v in tensor_values(src) if v in buf and v in vid
                    and (oid[src], i) in an.reads
                    and any(k == "equivalent" for _, k in an.aliases.get((oid[src], i), ()))]
            passes = [(k, t) for k, x in mem for t, b in dest if root(b) is root(x)]
            if passes:
                op.tv_pass = passes
        if use:
            op.tv_use = use
        if prod:
            op.tv_prod = prod
        if src is not op:
            outs = [(vid[v], buf[v]) for v in made(src) if v in buf]
            res = [(k, t) for k, r in enumerate(op.results) if T.is_memref(r.type)
                   for t in _holders(r, outs)]
            if res:
                op.tv_out = res
    for src, op in last.items():
        if src in oid:
            _def(op, [vid[v] for v in made_results(src, bz)])
    for src, nxt in anchor.items():
        if src not in last and src in oid:
            _def(nxt, [vid[v] for v in made_results(src, bz)], "tv_def_before")
    for src, tile in bz.passes:
        nxt = anchor.get(src)
        dv = [v for i, v in tensor_values(src) if (oid.get(src), i) in an.reads
              and any(k == "equivalent" for _, k in an.aliases.get((oid.get(src), i), ()))]
        into = [vid[v] for v in made_results(src, bz)]
        if nxt is not None and dv:
            nxt.tv_pass_view = [*getattr(nxt, "tv_pass_view", ()), *((vid[v], tile, into) for v in dv)]
    for op in ops:
        for rg in op.regions:
            for b in rg.blocks:
                ts = [vid[a] for a in getattr(b, "tv_args", ()) if a in vid]
                if ts:
                    b.tv_def = ts


def _holders(x: Value, held: list[tuple[int, Value]]) -> list[int]:
    """The values of ``held`` (value, its buffer) whose buffer memref ``x`` is, casts
    aside; when none, those whose buffer is a view of the same root as ``x``."""
    cx = strip_casts(x)
    same = [t for t, b in held if strip_casts(b) is cx]
    if same:
        return same
    rx = root(x)
    return [t for t, b in held if root(b) is rx]


def made_results(src: Op, bz) -> list[Value]:
    vid = bz.facts.value_id
    return [r for r in getattr(src, "tv_res", ()) if r in vid]


def _def(op: Op, vals: list[int], key: str = "tv_def") -> None:
    if vals:
        setattr(op, key, [*getattr(op, key, ()), *vals])


TAGS = ("origin", "origin_id", "tv_use", "tv_prod", "tv_def", "tv_def_before", "tv_undef",
        "tv_parts", "tv_pass", "tv_pass_view", "tv_out")


#: the tags that name an operand by its position: ``[(operand, value)]``
OPERAND_TAGS = ("tv_use", "tv_prod", "tv_pass")


def keep_operands(op: Op, kept: list[int]) -> None:
    """``op`` keeps only its operands at the positions ``kept`` (in order): renumber its
    operand tags to the new positions, drop those of the operands that go away. A stage that
    removes operands calls this first (and then :meth:`Op.set_operands`)."""
    where = {old: new for new, old in enumerate(kept)}
    for k in OPERAND_TAGS:
        if hasattr(op, k):
            setattr(op, k, [(where[i], v) for i, v in getattr(op, k) if i in where])


def result_made_in(op: Op, k: int, operand: int) -> None:
    """``op``'s result ``k`` goes away: the input value it held is now made by the op's
    writes through operand ``operand`` (a dropped call result that is an argument's
    buffer). Call before the results are renumbered (:func:`keep_results`)."""
    made = [(operand, t) for r, t in getattr(op, "tv_out", ()) if r == k]
    if made:
        op.tv_prod = [*getattr(op, "tv_prod", ()), *made]


def keep_results(op: Op, kept: list[int]) -> None:
    """``op`` keeps only its results at the positions ``kept``: renumber ``tv_out``."""
    where = {old: new for new, old in enumerate(kept)}
    if hasattr(op, "tv_out"):
        op.tv_out = [(where[r], t) for r, t in op.tv_out if r in where]


def handover(old: Op, new: Op | None = None) -> None:
    """``old`` is about to leave the program: ``new`` replaces it and takes every tag, or
    (no ``new``) the values complete after ``old`` are complete after the op that follows
    it in its block. A later stage that erases or replaces an op calls this first."""
    if new is not None:
        for k in TAGS:
            if hasattr(old, k):
                setattr(new, k, getattr(old, k))
        return
    defs = [*getattr(old, "tv_def", ()), *getattr(old, "tv_def_before", ())]
    blk = old.parent
    if not defs or blk is None:
        return
    ops = blk.ops
    k = ops.index(old)
    nxt = next((o for o in ops[k + 1:]), None)
    if nxt is not None:
        _def(nxt, defs, "tv_def_before")
