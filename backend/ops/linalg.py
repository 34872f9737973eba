"""linalg: structured ops in destination style (``generic``, ``map``, ``reduce`` and the
named ops).

Analysis: every structured op writes its ``outs`` in place, each equivalent to its tied
result, and reads its ``ins``; whether it reads an ``outs`` operand is the op's own
(``sem_dps`` kind): ``always`` (contractions, convolutions and poolings accumulate into
their init), ``never`` (elementwise named ops, fill, transpose, broadcast), or
``payload`` (the payload block argument of the operand has uses: generic, map, reduce).
Named elementwise ops access every operand elementwise (``sem_elementwise``). Rewrite:
the same op on buffers (each ``outs`` operand its buffer, or a fresh copy when the
analysis put it out of place), its tensor results replaced by those buffers.
"""

from __future__ import annotations

from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import IntegerAttr
from bufferlog.frontend.dialects._smb import segments
from bufferlog.frontend.dialects.linalg import linalg_ins_outs
from bufferlog.frontend.ir import Op, Region, Value

from . import COPY, PASS_THROUGH, op, sem

INDEX = T.IndexType()


def dps(bz, op: Op):
    """The structured op on buffers: ``ins`` their buffers, each ``outs`` operand the
    buffer it writes (a copy of the old contents only when the op reads them), the
    payload region's ops bufferized too (a captured tensor), the tensor results gone."""
    ins, outs = linalg_ins_outs(op)
    n_in = len(ins)
    new, res = [], []
    for i, v in enumerate(op.operands):
        if not bz.t_use(op, i):
            new.append(v)
        elif i < n_in:
            new.append(bz.B(v))
        else:
            b = bz.operand_buffer(op, i)
            new.append(b)
            res.append(b)
    op.set_operands(new)
    yield from op.regions[0].blocks if op.regions else ()  # e.g. tensor.extract of a captured tensor
    bz.ip = op
    for r, b in zip(op.results, res, strict=True):
        bz.buf[r] = b
    op.results = []


def _named(names: str, *facts, **extra) -> None:
    for n in names.split():
        op(f"linalg.{n}", *facts, rewrite=dps, exports=("dps",), **extra)


# -- ops with a payload region: an operand is read when its block argument has uses ----------
# (``payload``: which operands the payload block's arguments stand for, by position: every
# input and init, or the inputs only; ``identity_maps``: operands accessed through an
# identity indexing map of an all-parallel op are accessed elementwise)
op("linalg.generic", sem.dps("payload"), rewrite=dps, exports=("dps", "identity_maps"),
   payload="all")
op("linalg.map", sem.dps("payload"), sem.elementwise_operands(), rewrite=dps, exports=("dps",),
   payload="ins")
op("linalg.reduce", sem.dps("payload"), rewrite=dps, exports=("dps",), payload="all")

# -- named ops that do not read their init -----------------------------------------------------
_named("fill transpose broadcast", sem.dps("never"))
_named("elementwise", sem.dps("never"), sem.elementwise_default_maps())
_named("fill_rng_2d", sem.dps("never"))
# elementwise named ops: sem_dps(n, "never") is derived from sem_elementwise (rules/ops.dl)
op("linalg.copy", sem.elementwise(), sem.subset_copy(0, 1), rewrite=dps, traits=(COPY,),
   figure="copies", exports=("dps",))
_named("add sub mul div div_unsigned max min powf exp log abs ceil floor negf reciprocal round "
       "sqrt rsqrt square tanh erf select", sem.elementwise())

# -- named ops that accumulate into their init: contractions, convolutions, poolings -------------
_named("matmul batch_matmul matvec vecmat dot batch_reduce_matmul batch_matvec batch_vecmat "
       "batch_mmt4d mmt4d contract quantized_matmul quantized_batch_matmul", sem.dps("always"))
_named("conv_1d conv_2d conv_2d_nchw_fchw conv_2d_nhwc_hwcf conv_2d_nhwc_fhwc conv_1d_ncw_fcw "
       "conv_1d_nwc_wcf conv_2d_nchw_fchw_q conv_2d_ngchw_fgchw conv_2d_ngchw_gfchw "
       "conv_2d_ngchw_gfchw_q conv_2d_nhwc_fhwc_q conv_2d_nhwc_hwcf_q conv_2d_nhwgc_gfhwc "
       "conv_2d_nhwgc_gfhwc_q conv_3d conv_3d_ncdhw_fcdhw conv_3d_ndhwc_dhwcf "
       "conv_3d_ndhwc_dhwcf_q", sem.dps("always"))
_named("depthwise_conv_2d_nhwc_hwc depthwise_conv_1d_ncw_cw depthwise_conv_1d_nwc_wc "
       "depthwise_conv_1d_nwc_wcm depthwise_conv_2d_nchw_chw depthwise_conv_2d_nhwc_hwc_q "
       "depthwise_conv_2d_nhwc_hwcm depthwise_conv_2d_nhwc_hwcm_q depthwise_conv_3d_ncdhw_cdhw "
       "depthwise_conv_3d_ndhwc_dhwc depthwise_conv_3d_ndhwc_dhwcm", sem.dps("always"))
_named("pooling_nchw_max pooling_nhwc_max pooling_nchw_sum pooling_nhwc_sum pooling_ncw_max "
       "pooling_ncw_sum pooling_ndhwc_max pooling_ndhwc_min pooling_ndhwc_sum "
       "pooling_nhwc_max_unsigned pooling_nhwc_min pooling_nhwc_min_unsigned pooling_nwc_max "
       "pooling_nwc_max_unsigned pooling_nwc_min pooling_nwc_min_unsigned pooling_nwc_sum",
       sem.dps("always"))

# -- payload ops: their region op rewrites them ------------------------------------------------
op("linalg.yield", traits=(PASS_THROUGH,))
op("linalg.index", traits=(PASS_THROUGH,))


# -- builders -------------------------------------------------------------------------------

def fill(x: Value, b: Value) -> Op:
    """``linalg.fill ins(x) outs(b)`` on a buffer."""
    return Op("linalg.fill", [x, b], [], {"operandSegmentSizes": segments(1, 1)})


def map_(b: Value, body: Region) -> Op:
    """``linalg.map outs(b)`` with payload region ``body`` (no inputs)."""
    o = Op("linalg.map", [b])
    o.add_region(body)
    return o


def index(d: int, loc) -> Op:
    """``linalg.index d`` (the iteration's position along dimension ``d``)."""
    return Op("linalg.index", [], [INDEX], {"dim": IntegerAttr(d, T.IntegerType(64))}, loc=loc)


def yield_(values: list[Value], loc) -> Op:
    return Op("linalg.yield", list(values), [], {}, loc=loc)
