"""scf: structured control flow (loops, branches, regions run once, parallel loops).

Analysis: which regions repeat, exclude each other or run in parallel; how a loop ties
its inits to its region arguments and results (``sem_loop``, ``sem_while``); what a
terminator yields to its parent. Deallocation: which values flow from the op's operands
and terminators into which region arguments and results (``mem_region_flow``, after
MLIR's RegionBranchOpInterface). Rewrite: loops carry buffers (each iteration passes on
its own argument or a buffer it made, else a copy: rules/yield_ownership.dl decides once the
rewrite is done, :func:`loop_slot` notes each slot), branches yield
buffers of one type, ``scf.forall`` writes its shared outputs' buffers directly.
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.dialects._smb import segments
from bufferlog.frontend.ir import Op, Value
from bufferlog.frontend.operand_syntax import operand_syntax

from ..layouts import dynamic_layout, identity, in_space, space_of
from ..yield_ownership import Slot
from . import BRANCH_REGIONS, GUARD, PASS_THROUGH, facts_of, mem, op, sem
from .memref import strip_casts


def _named(v: Value, fallback: str) -> str:
    return f"%{v.name}" if v.name else fallback


def _line_col(op: Op) -> str:
    return f"{op.loc.line}:{op.loc.col}"


FOR, WHILE, IF = "scf.for", "scf.while", "scf.if"
YIELD, CONDITION = "scf.yield", "scf.condition"
#: scf.for's operands: lower bound, upper bound, step, then the inits
FOR_FIRST_INIT = 3

def carried(b: Value):
    """Type of a loop-carried buffer starting as ``b``."""
    t = b.type
    return t if identity(t) else in_space(T.MemRefType(t.shape, t.elem, dynamic_layout(t.rank)), t)


def retype(bz, vals, types) -> None:
    """Values ``vals`` (loop arguments, results) take the memref types ``types`` (None:
    not a tensor) and are their own buffers."""
    for v, t in zip(vals, types, strict=True):
        if t is not None:
            v.type = t
            bz.buf[v] = v


def loop_slot(bz, term: Op, k: int, b: Value, t, why=None) -> Value:
    """What loop terminator ``term`` passes on for carried buffer ``b`` (operand ``k``),
    as the rewrite writes it: ``b`` cast to the carried type ``t`` (a copy only where no
    cast makes that type). Whether the run owns ``b`` or must pass on a copy is the
    loop-yield stage's verdict (rules/yield_ownership.dl, backend/yield_ownership.py): the slot is
    noted for it."""
    v = bz.to_type(b, t)
    if not isinstance(b.type, T.UnrankedMemRefType):
        bz.loop_slots.append(Slot(term, k, b, t, why))
    return v


def yield_cause(bz, loop: Op, term: Op, k: int, v: Value):
    """The cause of the copy the loop-yield stage makes of operand ``k`` (tensor ``v``) of
    ``loop``'s terminator ``term``: a function of (its buffer's root, whether another loop
    value already passes it on). Where ``v`` is written is read now, while the rewrite
    still holds the input op (the stage decides once the rewrite is done)."""
    writer = getattr(v, "op", None)
    inside = writer is not None and any(p is loop for p in _ancestors(writer))

    def why(root: Value, reused: bool) -> str:
        name = _named(v, f"operand #{k}")
        head = (f"copy of {name} passed on by the {term.name} to the next iteration of the "
                f"{loop.name} at {_line_col(loop)}")
        if reused:
            return f"{head}: its buffer is passed on already as another loop value; each needs its own"
        origin = bz.made_for.get(root)
        if origin is None:
            return (f"{head}: it is neither the iteration's own buffer (its argument) nor a "
                    "buffer made in this iteration")
        where = f"the buffer of the {origin.name} at {_line_col(origin)}, made outside the loop"
        if inside and writer.name != IF:
            return (f"{head}: {name} is the {writer.name} at {_line_col(writer)} writing in place "
                    f"into {where}; the next iteration writes that buffer again while its "
                    f"argument would still hold {name}")
        return f"{head}: {name} lives in {where}, not in a buffer of the iteration's own"
    return why


def _ancestors(op: Op):
    p = op.parent_op
    while p is not None:
        yield p
        p = p.parent_op


def same_spaces(bz, op: Op, y: Op, types) -> None:
    """Each value loop ``op``'s terminator ``y`` yields lives in its init's memory space
    (mlir-opt refuses the loop otherwise, with these words, at the loop)."""
    for k, v in enumerate(y.operands):
        if k < len(types) and types[k] is not None and space_of(bz.B(v).type) != space_of(types[k]):
            bz.refuse(op, f"'{op.name}' op init_arg and yielded value bufferize to "
                          "inconsistent memory spaces")


def inits(bz, op: Op, first: int):
    """The buffers of a loop's inits (operands from ``first`` on): each its operand's
    buffer (a copy when out of place, or when a constant's, ``constant_init_copy`` of
    rules/analysis/copies.dl: the iterations write what they receive), cast to the
    carried type; the carried types, None for non-tensors."""
    types = []
    for i in range(len(op.operands)):
        if i < first or not bz.t_use(op, i):
            types.append(None)
            continue
        b = bz.operand_buffer(op, i)
        if (bz.op_id.get(op, -1), i) in bz.constant_init:  # copies.dl
            with bz.because(f"copy of the constant {operand_syntax(op, i)} the {op.name} starts "
                            "from: its iterations write the buffer they receive, a constant's "
                            "is read-only"):
                b = bz.fresh_copy(b)
        t = carried(b)
        op.set_operand(i, bz.cast(b, t))
        types.append(t)
    return types[first:]


@op(FOR, sem.known(), sem.loop(FOR_FIRST_INIT, 1), sem.loop_bounds(0, 1), sem.repetitive(),
    mem.repetitive(),
    mem.region_flow(-1, 0, FOR_FIRST_INIT, 1), mem.region_flow(-1, -1, FOR_FIRST_INIT, 0),
    mem.region_flow(0, 0, 0, 1), mem.region_flow(0, -1, 0, 0))
def for_(bz, op: Op):
    """Inits (operands from 3 on) enter the body (arguments from 1 on) and, with zero
    trips, the results (mem_region_flow); the body's yield feeds the next iteration and
    the results."""
    types = inits(bz, op, FOR_FIRST_INIT)
    body = op.regions[0].entry
    retype(bz, body.args[1:], types)
    retype(bz, op.results, types)
    yield body
    bz.ip = op
    y = body.ops[-1]
    bz.ip = y
    same_spaces(bz, op, y, types)
    y.set_operands([loop_slot(bz, y, k, bz.B(v), types[k], yield_cause(bz, op, y, k, v))
                    if types[k] is not None else v for k, v in enumerate(y.operands)])
    bz.ip = op


@op(WHILE, sem.repetitive(), sem.known(), sem.while_(), sem.while_condition(CONDITION),
    mem.repetitive(), mem.region_flow(-1, 0, 0, 0), mem.region_flow(0, 1, 1, 0),
    mem.region_flow(0, -1, 1, 0), mem.region_flow(1, 0, 0, 0))
def while_(bz, op: Op):
    """Inits enter ``before``; scf.condition's operands after the flag go to ``after``
    and to the results; ``after``'s yield goes back to ``before``."""
    types = inits(bz, op, 0)
    before, after = op.regions[0].entry, op.regions[1].entry
    retype(bz, before.args, types)
    yield before
    cond = before.ops[-1]
    bz.ip = cond
    vals, atypes = [cond.operands[0]], []
    for k, v in enumerate(cond.operands[1:], 1):
        if not bz.t_use(cond, k):
            vals.append(v)
            atypes.append(None)
            continue
        b = bz.B(v)
        root = strip_casts(b)
        # an argument of the before region keeps its type; anything else is carried
        t = types[before.args.index(root)] if root in before.args else carried(b)
        vals.append(loop_slot(bz, cond, k, b, t, yield_cause(bz, op, cond, k, v)))
        atypes.append(t)
    cond.set_operands(vals)
    retype(bz, after.args, atypes)
    retype(bz, op.results, atypes)
    yield after
    y = after.ops[-1]
    bz.ip = y
    same_spaces(bz, op, y, types)
    y.set_operands([loop_slot(bz, y, k, bz.B(v), types[k], yield_cause(bz, op, y, k, v))
                    if types[k] is not None else v for k, v in enumerate(y.operands)])
    bz.ip = op


@op(IF, sem.known(), sem.exclusive(), sem.yield_to_parent(YIELD), mem.region_branch(),
    traits=(BRANCH_REGIONS, GUARD))
@op("scf.index_switch", sem.exclusive(), sem.yield_to_parent(YIELD), sem.known(),
    mem.region_branch(), traits=(BRANCH_REGIONS,))
def if_(bz, op: Op):
    """Each region's blocks, then each tensor result takes the type every branch's
    buffer has, or the fully dynamic layout when they differ (casts in the yields)."""
    blocks = [r.entry for r in op.regions if r.blocks]
    ys = []
    for b in blocks:
        yield b
        ys.append(b.ops[-1])
    bz.ip = op
    types = []
    for k, r in enumerate(op.results):
        if not bz.is_t(r):
            types.append(None)
            continue
        bt = [bz.B(y.operands[k]).type for y in ys]
        if len({str(space_of(t)) for t in bt}) > 1:  # mlir-opt's words and place
            bz.refuse(op, "inconsistent memory space on then/else branches")
        if all(t == bt[0] for t in bt):
            types.append(bt[0])
        elif any(isinstance(t, T.UnrankedMemRefType) for t in bt):
            bz.fail(op, "bufferize: scf.if yielding unranked tensors of different layouts")
        else:
            types.append(in_space(T.MemRefType(r.type.shape, r.type.elem, dynamic_layout(r.type.rank)), bt[0]))
    for y in ys:
        bz.ip = y
        y.set_operands([bz.cast(bz.B(v), types[k]) if types[k] is not None else v
                        for k, v in enumerate(y.operands)])
    retype(bz, op.results, types)
    bz.ip = op


@op("scf.execute_region", sem.yield_to_parent(YIELD), sem.known(), sem.unique_yield(YIELD),
    mem.region_branch())
def execute_region(bz, op: Op):
    """The region's blocks, then each tensor result takes the type of the buffer its
    (unique) ``scf.yield`` passes (MLIR's buffer type of the yielded value)."""
    blocks = op.regions[0].blocks
    for blk in blocks:
        if blk is not blocks[0]:
            bz.block_args(blk)
        yield blk
    ys = [b.ops[-1] for b in blocks if b.ops and b.ops[-1].name == YIELD]
    if len(ys) != 1:
        bz.fail(op, "'scf.execute_region' op op without unique scf.yield is not supported")
    y = ys[0]
    bufs = [bz.B(v) if bz.t_use(y, k) else v for k, v in enumerate(y.operands)]
    y.set_operands(bufs)
    retype(bz, op.results, [b.type if bz.t_use(y, k) else None for k, b in enumerate(bufs)])
    bz.ip = op


@op("scf.forall", sem.repetitive(), sem.known(), sem.shared_outs(), sem.parallel(), mem.repetitive(),
    exports=("loop_bounds",))
def forall(bz, op: Op):
    """scf.forall on memrefs: no shared_outs, no results. Each shared_out's block
    argument stands for its buffer directly (an alloc + copy before the loop when the
    analysis put it out of place, at the forall or at a parallel_insert_slice into it);
    parallel_insert_slices become copies into subviews of it (see below)."""
    from bufferlog.frontend.dialects.scf import forall_parts

    f = forall_parts(op)
    lead = len(op.operands) - len(f.outputs)
    inserts = [o for o in f.terminator.regions[0].entry.ops if facts_of(o, "sem_shared_insert")]
    oid = bz.op_id.get(op, -1)
    bufs = []
    for k, (v, arg) in enumerate(zip(f.outputs, f.shared_outs, strict=True)):
        b = bz.B(v)
        inplace = bz.dec.inplace.get((oid, lead + k), True) and all(
            bz.dec.inplace.get((bz.op_id.get(o, -1), 1), True)
            for o in inserts if o.operands[1] is arg)
        if not inplace or (oid, lead + k) in bz.constant_init:  # copies.dl
            if isinstance(b.type, T.UnrankedMemRefType):
                bz.fail(op, "bufferize: out-of-place unranked shared_out")
            why = (bz.copy_cause(op, lead + k) if not bz.dec.inplace.get((oid, lead + k), True)
                   else f"copy of the shared_out {operand_syntax(op, lead + k)}: "
                   + ("a tensor.parallel_insert_slice into it is out of place" if inplace is False
                      or not all(bz.dec.inplace.get((bz.op_id.get(o, -1), 1), True)
                                 for o in inserts if o.operands[1] is arg)
                      else "the iterations would write a read-only constant"))
            with bz.because(why):
                n = bz.alloc_like(b)
                if not bz.uninit(v):
                    bz.copy(b, n)
                else:
                    bz.undefined(n)
            b = n
        bufs.append(b)
        bz.buf[arg] = b
    yield f.body
    bz.ip = op
    for arg, b in zip(f.shared_outs, bufs, strict=True):
        arg.replace_all_uses_with(b)
    del f.body.args[len(f.ivs):]
    for r, b in zip(op.results, bufs, strict=True):
        bz.buf[r] = b
    op.results = []
    op.set_operands(op.operands[:lead])
    old = list(op.attrs["operandSegmentSizes"].values)
    op.attrs["operandSegmentSizes"] = segments(*old[:3], 0)


op(YIELD, sem.known(), sem.read(-1), sem.must_inplace(), mem.yield_(), traits=(PASS_THROUGH,))
op(CONDITION, sem.known(), sem.read(-1), sem.must_inplace(), mem.yield_(), traits=(PASS_THROUGH,))
op("scf.forall.in_parallel", sem.known(), sem.graph_region())
op("scf.parallel", sem.repetitive(), mem.repetitive())


def constant_branch(op: Op) -> bool | None:
    """The branch an ``scf.if`` always takes (True: then), or None."""
    from .arith import constant_condition

    return constant_condition(op.operands[0]) if op.name == IF and op.operands else None


# -- builders -------------------------------------------------------------------------------

def yield_(values=()) -> Op:
    return Op(YIELD, list(values))


def if_op(cond: Value, result_types, regions) -> Op:
    """``scf.if`` on ``cond`` with results of ``result_types`` and regions ``regions``."""
    return Op(IF, [cond], list(result_types), {}, list(regions))
