"""tensor: the tensor dialect's ops on values, and their buffers.

Analysis facts per op (``sem_*``): which operands it reads and writes in place, which
result aliases which operand, subset extraction and insertion (slices), element
accesses. Rewrite: element accesses become ``memref.load`` / ``memref.store`` on the
buffer; slices become ``memref.subview``s (an ``insert_slice`` copies its source into
the subview unless the source already is that subview); reshapes become memref reshapes
of the same buffer; ``empty``, ``from_elements``, ``splat``, ``generate``, ``pad`` and
``concat`` allocate and fill a new buffer.

``tensor.bitcast`` has no bufferization semantics in mlir-opt 22 (an unknown op there too).
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.dialects.tensor import expand_output_shape, reassociation, slice_params
from bufferlog.frontend.ir import Block, Op, Region, Value

from ..layouts import (
    BufferizeError,
    collapsed_type,
    dynamic_layout,
    expanded_type,
    identity,
    identity_map,
    in_space,
    memref_of,
    strides_of,
    subview_type,
)
from . import RESHAPE_VIEW, arith, has, linalg, memref, op, sem


@op("tensor.empty", sem.known(), sem.result_no_write())
def empty(bz, op: Op):
    t = op.result.type
    bz.done(op, bz.undefined(bz.alloc(memref_of(t), list(op.operands))))


@op("tensor.from_elements", sem.known())
def from_elements(bz, op: Op):
    t = op.result.type
    b = bz.alloc(memref_of(t))
    b.op.tv_parts = True  # one store per element below
    shape = list(t.shape)
    for n, v in enumerate(op.operands):
        idx, rest = [], n
        for d in reversed(shape):
            idx.append(rest % d)
            rest //= d
        bz.put(memref.store(v, b, [bz.const_index(i) for i in reversed(idx)]))
    bz.done(op, b)


@op("tensor.extract", sem.known(), sem.read(0), sem.element_access(0))
def extract(bz, op: Op):
    load = bz.put(memref.load(bz.B(op.operands[0]), op.operands[1:], op.result.type))
    op.result.replace_all_uses_with(load.result)
    bz.dead.append(op)


@op("tensor.insert", sem.known(), sem.read(1), sem.write(1), sem.alias(1, 0, "equivalent"),
    sem.element_access(1))
def insert(bz, op: Op):
    b = bz.operand_buffer(op, 1)
    bz.put(memref.store(op.operands[0], b, op.operands[2:]))
    bz.done(op, b)


@op("tensor.dim", sem.known())
def dim(bz, op: Op):
    d = bz.put(memref.dim(bz.B(op.operands[0]), op.operands[1])).result
    op.result.replace_all_uses_with(d)
    bz.dead.append(op)


@op("tensor.rank", sem.known())
def rank(bz, op: Op):
    r = bz.put(memref.rank(bz.B(op.operands[0]))).result
    op.result.replace_all_uses_with(r)
    bz.dead.append(op)


@op("tensor.extract_slice", sem.known(), sem.alias(0, 0, "unknown"), sem.subset_extract(0),
    slice_leading=1)
def extract_slice(bz, op: Op):
    offs, sizes, strides = slice_params(op)
    b = bz.B(op.operands[0])
    if isinstance(b.type, T.UnrankedMemRefType):
        bz.fail(op, "bufferize: slice of an unranked tensor")
    v = bz.subview(b, offs, sizes, strides, op.result.type.shape)
    bz.done(op, bz.result_copy(op, v))


@op("tensor.insert_slice", sem.known(), sem.read(0), sem.write(1), sem.alias(1, 0, "equivalent"),
    sem.subset_insert(0, 1), slice_leading=2,
    own_copy="tensor.insert_slice writes its source {0} into its slice of the destination")
def insert_slice(bz, op: Op):
    offs, sizes, strides = slice_params(op)
    src = bz.B(op.operands[0])
    d = bz.operand_buffer(op, 1)
    if not same_region(src, d, offs, sizes, strides, op.operands[0].type.shape):
        bz.copy(src, bz.subview(d, offs, sizes, strides, op.operands[0].type.shape))
    else:  # the tile is in place: the rest of the destination passes through
        bz.passes.append((op, src))
    bz.done(op, d)


def same_region(src: Value, d: Value, offs, sizes, strides, shape) -> bool:
    """``src`` already is the slice of ``d`` being inserted: the very subview, or a
    view of it (reshapes / casts) with the same shape and the same static layout
    (hence the same elements), e.g. collapse(expand(subview)) -- no copy needed."""
    s = src
    while getattr(s, "op", None) is not None and has(s.op, RESHAPE_VIEW):
        s = s.op.operands[0]
    v = getattr(s, "op", None)
    if not (memref.is_subview(s) and v.operands[0] is d
            and slice_params(v) == (offs, sizes, strides)):
        return False
    if s is src:
        return True
    if isinstance(src.type, T.UnrankedMemRefType):
        return False
    want = subview_type(d.type, offs, sizes, strides, shape)
    (ws, wo), (gs, go) = strides_of(want), strides_of(src.type)
    return (want.shape == src.type.shape and None not in want.shape and wo is not None
            and None not in ws and (ws, wo) == (gs, go))


@op("tensor.cast", sem.known(), sem.alias(0, 0, "equivalent"))
def cast(bz, op: Op):
    b, t = bz.operand_buffer(op, 0), op.result.type
    if isinstance(t, T.UnrankedTensorType):
        nt = T.UnrankedMemRefType(t.elem)
    elif isinstance(b.type, T.UnrankedMemRefType) or identity(b.type):
        nt = in_space(T.MemRefType(t.shape, t.elem), b.type)
    else:
        nt = in_space(T.MemRefType(t.shape, t.elem, dynamic_layout(t.rank)), b.type)
    bz.done(op, bz.cast(b, nt))


@op("tensor.expand_shape", sem.known(), sem.alias(0, 0, "equivalent"))
def expand_shape(bz, op: Op):
    b, t = bz.B(op.operands[0]), op.result.type
    if isinstance(b.type, T.UnrankedMemRefType):
        bz.fail(op, "bufferize: expand_shape of an unranked tensor")
    check_output_shape(bz, op)
    rt = expanded_type(b.type, list(t.shape), reassociation(op))
    dyn = [x for x in expand_output_shape(op) if not isinstance(x, int)]
    v = bz.put(memref.expand_shape(b, dyn, rt, op.attrs["reassociation"],
                                   op.attrs["static_output_shape"])).result
    bz.done(op, bz.result_copy(op, v))


def check_output_shape(bz, op: Op) -> None:
    """memref.expand_shape's verifier, on the op this rewrite would make: each static
    ``output_shape`` entry against the result type's size, located at the op's name as
    mlir-opt's (mlir-opt bufferizes a tensor.expand_shape that breaks it, then rejects its
    own output)."""
    from bufferlog.frontend.verify_shapes import output_shape_mismatch

    bad = output_shape_mismatch(op)
    if bad is not None:
        raise BufferizeError(f"'memref.expand_shape' op {bad}", op.name_loc or op.loc)


@op("tensor.collapse_shape", sem.known(), sem.alias(0, 0, "equivalent"))
def collapse_shape(bz, op: Op):
    b, t = bz.operand_buffer(op, 0), op.result.type
    if isinstance(b.type, T.UnrankedMemRefType):
        bz.fail(op, "bufferize: collapse_shape of an unranked tensor")
    refs = None
    if not identity_map(b.type):  # contiguous groups? (rules/layouts.dl)
        why, refs = bz.layouts.collapse(b.type, reassociation(op))
        if why is not None:  # not provably: collapse an identity-layout copy
            with bz.because(f"copy of the source of tensor.collapse_shape into an identity "
                            f"layout: {b.type} is not provably contiguous ({why})"):
                b = bz.fresh_copy(b)
    rt = collapsed_type(b.type, list(t.shape), refs)
    bz.done(op, bz.put(memref.collapse_shape(b, rt, op.attrs["reassociation"])).result)


@op("tensor.reshape", sem.known(), sem.read(1), sem.alias(0, 0, "equivalent"))
def reshape(bz, op: Op):
    """``memref.reshape`` of an identity-layout buffer (a view); a strided source (and
    shape operand) is copied into an identity buffer first, as memref.reshape needs."""
    b = bz.operand_buffer(op, 0)
    if isinstance(b.type, T.UnrankedMemRefType):
        bz.fail(op, "bufferize: tensor.reshape of an unranked tensor")
    with bz.because("copy into an identity layout: memref.reshape takes no strided buffer"):
        if not identity(b.type) and bz.layouts.not_identity(b.type):  # a strided one: rules/layouts.dl
            b = bz.fresh_copy(b)
        shape = bz.B(op.operands[1])
        if not identity(shape.type) and bz.layouts.not_identity(shape.type):
            shape = bz.fresh_copy(shape)
    bz.done(op, bz.put(memref.reshape(b, shape, memref_of(op.result.type))).result)


@op("tensor.splat", sem.known())
def splat(bz, op: Op):
    """alloc of the result shape (dynamic sizes: the operands after the value), filled."""
    b = bz.alloc(memref_of(op.result.type), list(op.operands[1:]))
    bz.put(linalg.fill(op.operands[0], b))
    bz.done(op, b)


@op("tensor.generate", sem.known())
def generate(bz, op: Op):
    """alloc of the result shape (dynamic sizes: the operands), then the body: a
    ``linalg.map`` on ``linalg.index``es (a ``linalg.fill`` when the value does not
    depend on the position), as for tensor.pad's padding value."""
    b = bz.alloc(memref_of(op.result.type), list(op.operands))
    yield from pad_fill(bz, op, b)
    bz.done(op, b)


@op("tensor.pad", sem.known(), sem.read(0),
    own_copy="tensor.pad copies its source {0} into the interior of its padded buffer")
def pad(bz, op: Op):
    """MLIR's way: alloc of the padded shape, the padding value everywhere (a
    ``linalg.fill`` for a value independent of the position, else a ``linalg.map``
    running the pad body on ``linalg.index``es), then ONE copy of the source into the
    interior subview."""
    from bufferlog.frontend.dialects.tensor import pad_params

    t = op.result.type
    src = bz.B(op.operands[0])
    if isinstance(src.type, T.UnrankedMemRefType):
        bz.fail(op, "bufferize: tensor.pad of an unranked tensor")
    low, high = pad_params(op)
    sizes = [d if d is not None else bz.put(memref.dim(src, bz.const_index(i))).result
             for i, d in enumerate(src.type.shape)]
    dyn = []
    for i, d in enumerate(t.shape):
        if d is None:
            total = index_sum(bz, [low[i], sizes[i], high[i]])
            dyn.append(total if isinstance(total, Value) else bz.const_index(total))
    b = bz.alloc(memref_of(t), dyn)
    yield from pad_fill(bz, op, b)
    bz.copy(src, bz.subview(b, low, sizes, [1] * t.rank, src.type.shape))
    bz.done(op, b)


def index_sum(bz, parts):
    """Sum of ints / index Values: an int when all are static, else a Value."""
    const = sum(x for x in parts if isinstance(x, int))
    vals = [x for x in parts if not isinstance(x, int)]
    if not vals:
        return const
    acc = vals[0]
    for x in [*vals[1:], *([bz.const_index(const)] if const else [])]:
        acc = bz.put(arith.addi(acc, x)).result
    return acc


def pad_fill(bz, op, b: Value) -> None:
    body = op.regions[0].entry
    yld = body.ops[-1]
    y = yld.operands[0]
    inner = getattr(y, "op", None) is not None and y.op.parent is body
    if y.owner is not body and not (inner and (y.op.operands or y.op.regions or len(body.ops) > 2)):
        if inner:  # a lone constant: hoist it
            c = y.op
            y = bz.emit(c.name, [], [c.result.type], dict(c.attrs)).result
        bz.put(linalg.fill(y, b))
        return
    # position-dependent (or computed) padding: the body becomes a linalg.map
    blk = Block([b.type.elem])
    bz.put(linalg.map_(b, Region([blk])))
    for d, arg in enumerate(body.args):
        ix = blk.append(linalg.index(d, op.loc))
        arg.replace_all_uses_with(ix.result)
    for o in list(body.ops[:-1]):
        body.ops.remove(o)
        blk.append(o)
    blk.append(linalg.yield_([y], yld.loc))
    yld.erase()
    yield blk  # e.g. tensor.extract of a captured tensor
    bz.ip = op


@op("tensor.concat", sem.known(), sem.read(-1),
    own_copy="tensor.concat copies each operand into its slice of the result")
def concat(bz, op: Op):
    """alloc of the result shape, then one copy per operand into its subview. Dynamic
    sizes come from the operands (``memref.dim``): a dynamic result dimension is the
    sum of the operands' along the concatenated one, else the first operand's; the
    offsets along it add up the operands' sizes."""
    t, dim = op.result.type, op.attrs["dim"].value
    bufs = [bz.B(v) for v in op.operands]
    if any(isinstance(b.type, T.UnrankedMemRefType) for b in bufs):
        bz.fail(op, "bufferize: tensor.concat of an unranked tensor")
    sizes = [[d if d is not None else bz.put(memref.dim(b, bz.const_index(i))).result
              for i, d in enumerate(b.type.shape)] for b in bufs]
    dyn = []
    for i, d in enumerate(t.shape):
        if d is None:
            n = index_sum(bz, [s[i] for s in sizes]) if i == dim else sizes[0][i]
            dyn.append(n if isinstance(n, Value) else bz.const_index(n))
    b = bz.alloc(memref_of(t), dyn)
    b.op.tv_parts = True  # one copy per operand below, side by side
    at: int | Value = 0
    for k, (v, s, size) in enumerate(zip(op.operands, bufs, sizes, strict=True)):
        if k:
            at = index_sum(bz, [at, sizes[k - 1][dim]])
        offs = [at if i == dim else 0 for i in range(t.rank)]
        bz.copy(s, bz.subview(b, offs, size, [1] * t.rank, v.type.shape))
    bz.done(op, b)


# tensor.parallel_insert_slice (in scf.forall.in_parallel): reads its source and writes its
# destination (the shared_outs block argument), which it does not read (checked with
# mlir-opt 22, where a linalg.fill of the whole shared output before it stays in place;
# bufferlog copies that fill: rules/analysis/parallel.dl). Its region is a graph region
# (sem_graph_region), so its reads never conflict with its writes (a mismatching slice,
# or two parallel_insert_slices, are no conflict in mlir-opt).
@op("tensor.parallel_insert_slice", sem.known(), sem.read(0), sem.write(1), sem.shared_insert(1),
    slice_leading=2,
    own_copy="tensor.parallel_insert_slice writes its tile {0} into its slice of the shared buffer")
def parallel_insert_slice(bz, op: Op):
    """A copy of the tile into its subview of the shared buffer, just before the
    ``scf.forall.in_parallel`` terminator (MLIR's way), or nothing when the tile
    already is that subview (the iteration wrote its slice in place)."""
    offs, sizes, strides = slice_params(op)
    bz.ip, bz.stands_for = op.parent_op, op  # written before the terminator, for this op
    try:
        src, d = bz.B(op.operands[0]), bz.B(op.operands[1])
        if not same_region(src, d, offs, sizes, strides, op.operands[0].type.shape):
            bz.copy(src, bz.subview(d, offs, sizes, strides, op.operands[0].type.shape))
    finally:
        bz.stands_for = None
    bz.dead.append(op)


op("tensor.yield", sem.known())  # the body of tensor.generate / tensor.pad: scalars only
