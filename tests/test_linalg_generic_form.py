"""``print --generic`` of named linalg ops against the oracle.

A named linalg op has an implicit region (its scalar body) and default properties that
only the generic form shows; ``frontend/dialects/linalg_bodies.py`` synthesizes them.
Properties checked here:

* corpus: ``mlir-opt --mlir-print-op-generic F`` equals ``mlir-opt --mlir-print-op-generic
  <(bufferlog print --generic F)``, text for text. Both sides go through mlir-opt, which
  renames SSA values / block labels and re-derives aliases and MLIR's own caches
  (``linalg.memoized_indexing_maps``), so that is the only normalisation.
* snippets: every named op the frontend knows (``NAMED_OPS`` + transpose/broadcast, every
  ``elementwise`` kind) on tensors and memrefs, for a table of element types (f32, f16->f32,
  f64->f32, i32, i8->i32, i8->f32, f32->i32, i1, index, complex, ui32, and the unsigned
  casts): where mlir-opt accepts the custom form, the same equality; where it rejects
  it, ``print --generic`` must fail with a located error rather than print invalid IR.
* reverse: the generic form as mlir-opt prints it parses into an op our custom printer
  prints as the named op again (same mlir-opt output as the original snippet).

Snippets of one op go to mlir-opt as one ``--split-input-file`` batch (a rejected chunk
prints nothing), so the table costs a few mlir-opt runs per op.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from bufferlog.frontend.dialects.linalg import NAMED_OPS
from bufferlog.frontend.dialects.linalg_bodies import (
    BINARY_FNS,
    ELEMENTWISE_KINDS,
    UNARY_FNS,
    GenericFormError,
)
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module
from conftest import CORPUS_FILES, REPO, mlir_opt_path

SPLIT = "// -----"


def _opt(mlir_opt: str, text: str, *flags: str, split: bool = False) -> tuple[int, str, str]:
    args = [mlir_opt, *flags, *(["--split-input-file"] if split else []), "-"]
    r = subprocess.run(args, input=text, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def _generic(mlir_opt: str, text: str) -> str:
    rc, out, err = _opt(mlir_opt, text, "--mlir-print-op-generic")
    assert rc == 0, err
    return out


def _split_run(mlir_opt: str, chunks: list[str], *flags: str) -> list[str]:
    """mlir-opt on each chunk (one process); '' for a chunk it rejects.

    mlir-opt-22 crashes on some invalid combinations (``linalg.elementwise`` whose body
    cannot be built, ``batch_matmul`` on index): a crash counts as a rejection. It prints
    the marker before each later chunk's output, so the markers printed before a crash
    tell which chunk crashed (confirmed by running it alone); the run resumes after it."""
    outs: list[str] = []
    while len(outs) < len(chunks):
        rest = chunks[len(outs):]
        rc, out, _ = _opt(mlir_opt, f"\n{SPLIT}\n".join(rest), *flags, split=True)
        parts = [p.strip() for p in out.split(SPLIT)]
        if rc >= 0:
            assert len(parts) == len(rest), out
            return outs + parts
        k = out.count(SPLIT)
        if _opt(mlir_opt, rest[k], *flags)[0] >= 0:  # not where we thought: one by one
            for c in rest:
                rc, out, _ = _opt(mlir_opt, c, *flags)
                outs.append(out.strip() if rc == 0 else "")
            return outs
        outs += parts[:k] + [""]
    return outs


# -- corpus -------------------------------------------------------------------------------


@pytest.mark.oracle
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_generic_form(mlir_opt: str, path: Path) -> None:
    ours = print_module(parse(path.read_text(), str(path)), generic=True)
    assert _generic(mlir_opt, ours) == _generic(mlir_opt, path.read_text())


# -- the snippet table --------------------------------------------------------------------

S = "s"  # a scalar operand (rank marker)

#: op -> (input ranks, output rank); "s" = a scalar operand
RANKS: dict[str, tuple[tuple[int | str, ...], int]] = {
    **{n: ((2,), 2) for n in "abs ceil erf exp floor log negf reciprocal round rsqrt sqrt "
                             "square tanh copy".split()},
    **{n: ((2, 2), 2) for n in "add div div_unsigned max min mul powf sub".split()},
    "select": ((2, 2, 2), 2), "fill": ((S,), 2), "fill_rng_2d": ((S, S, S), 2),
    "matmul": ((2, 2), 2), "matvec": ((2, 1), 1), "vecmat": ((1, 2), 1), "dot": ((1, 1), 0),
    "batch_matmul": ((3, 3), 3), "batch_matvec": ((3, 2), 2), "batch_vecmat": ((2, 3), 2),
    "batch_reduce_matmul": ((3, 3), 2), "mmt4d": ((4, 4), 4), "batch_mmt4d": ((5, 5), 5),
    "quantized_matmul": ((2, 2, S, S), 2), "quantized_batch_matmul": ((3, 3, S, S), 3),
    "conv_1d": ((1, 1), 1), "conv_2d": ((2, 2), 2), "conv_3d": ((3, 3), 3),
    "conv_1d_ncw_fcw": ((3, 3), 3), "conv_1d_nwc_wcf": ((3, 3), 3),
    "conv_2d_nchw_fchw": ((4, 4), 4), "conv_2d_nhwc_fhwc": ((4, 4), 4),
    "conv_2d_nhwc_hwcf": ((4, 4), 4), "conv_2d_nchw_fchw_q": ((4, 4, S, S), 4),
    "conv_2d_nhwc_fhwc_q": ((4, 4, S, S), 4), "conv_2d_nhwc_hwcf_q": ((4, 4, S, S), 4),
    "conv_2d_ngchw_fgchw": ((5, 5), 5), "conv_2d_ngchw_gfchw": ((5, 5), 5),
    "conv_2d_ngchw_gfchw_q": ((5, 5, S, S), 5), "conv_2d_nhwgc_gfhwc": ((5, 5), 5),
    "conv_2d_nhwgc_gfhwc_q": ((5, 5, S, S), 5), "conv_3d_ncdhw_fcdhw": ((5, 5), 5),
    "conv_3d_ndhwc_dhwcf": ((5, 5), 5), "conv_3d_ndhwc_dhwcf_q": ((5, 5, S, S), 5),
    "depthwise_conv_1d_ncw_cw": ((3, 2), 3), "depthwise_conv_1d_nwc_wc": ((3, 2), 3),
    "depthwise_conv_1d_nwc_wcm": ((3, 3), 4), "depthwise_conv_2d_nchw_chw": ((4, 3), 4),
    "depthwise_conv_2d_nhwc_hwc": ((4, 3), 4), "depthwise_conv_2d_nhwc_hwc_q": ((4, 3, S, S), 4),
    "depthwise_conv_2d_nhwc_hwcm": ((4, 4), 5),
    "depthwise_conv_2d_nhwc_hwcm_q": ((4, 4, S, S), 5),
    "depthwise_conv_3d_ncdhw_cdhw": ((5, 4), 5), "depthwise_conv_3d_ndhwc_dhwc": ((5, 4), 5),
    "depthwise_conv_3d_ndhwc_dhwcm": ((5, 5), 6),
    **{f"pooling_{lay}_{f}": ((4, 2), 4) for lay in ("nchw", "nhwc")
       for f in ("max", "sum", "min", "max_unsigned", "min_unsigned")},
    **{f"pooling_{lay}_{f}": ((3, 1), 3) for lay in ("ncw", "nwc")
       for f in ("max", "sum", "min", "max_unsigned", "min_unsigned")},
    **{f"pooling_ndhwc_{f}": ((5, 3), 5) for f in ("max", "sum", "min")},
    "transpose": ((2,), 2), "broadcast": ((1,), 2),
}
# drop the generated pooling names linalg does not have (e.g. pooling_ncw_min)
RANKS = {k: v for k, v in RANKS.items()
         if f"linalg.{k}" in NAMED_OPS or k in ("transpose", "broadcast")}

#: (input element type, output element type); ops with a `cast` attribute also get each
#: combination with `{cast = #linalg.type_fn<cast_unsigned>}`
TYPES: list[tuple[str, str]] = [
    ("f32", "f32"), ("f16", "f32"), ("f64", "f32"), ("f16", "f16"), ("bf16", "f32"),
    ("i32", "i32"), ("i8", "i32"), ("i32", "i8"), ("i8", "f32"), ("f32", "i32"),
    ("i1", "i1"), ("i1", "i32"), ("index", "i32"), ("i32", "index"), ("index", "index"),
    ("complex<f32>", "complex<f32>"), ("ui32", "ui32"), ("ui8", "i32"),
]
#: the body does not depend on the carrier: memrefs get a few combinations, and so does
#: `elementwise` (its scalar functions are the named ops' ones)
MEMREF_TYPES = [("f32", "f32"), ("f16", "f32"), ("i32", "i32"), ("i8", "i32")]
ELEMENTWISE_TYPES = [("f32", "f32"), ("f16", "f32"), ("i32", "i32"), ("i1", "i1"),
                     ("complex<f32>", "complex<f32>")]
CAST_ATTR_OPS = {"copy", "matmul", "batch_matmul", "batch_reduce_matmul", "contract"}
UNSIGNED_CAST = " {cast = #linalg.type_fn<cast_unsigned>}"


@dataclass(frozen=True)
class Case:
    op: str          # linalg.<op>
    text: str        # one func with the op in custom form
    label: str


def _shaped(rank: int | str, el: str, mem: bool) -> str:
    if rank == S:
        return el
    dims = "?x" * int(rank)
    return f"memref<{dims}{el}>" if mem else f"tensor<{dims}{el}>"


def _func(op: str, head: str, in_types: list[str], out_type: str, mem: bool,
          tail: str = "") -> str:
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate([*in_types, out_type]))
    ins = ", ".join(f"%a{i}" for i in range(len(in_types)))
    n = len(in_types)
    io = f"ins({ins} : {', '.join(in_types)}) outs(%a{n} : {out_type}){tail}"
    if mem:
        return f"func.func @f({args}) {{\n  {head} {io}\n  return\n}}\n"
    res = "" if tail else f" -> {out_type}"
    return (f"func.func @f({args}) -> {out_type} {{\n  %r = {head} {io}{res}\n"
            f"  return %r : {out_type}\n}}\n")


def _input_types(op: str, ranks: tuple[int | str, ...], el: str) -> list[str]:
    if op == "select":
        return ["i1", el, el]
    if op == "fill_rng_2d":
        return ["f64", "f64", "i32"] if el != "f32" else ["f32", "f32", "i32"]
    return [el] * len(ranks)


def cases_for(op: str) -> list[Case]:
    out: list[Case] = []
    for mem in (False, True):
        carrier = "memref" if mem else "tensor"
        if op.startswith("elementwise"):
            kind = op.split(":", 1)[1]
            arity = len(ELEMENTWISE_KINDS[kind]) - 1
            for el, oel in ELEMENTWISE_TYPES if not mem else MEMREF_TYPES[:1]:
                ins = ["i1", el, el] if kind == "select" else [el] * arity
                in_t = [_shaped(2, e, mem) for e in ins]
                head = f"linalg.elementwise kind=#linalg.elementwise_kind<{kind}>"
                out.append(Case("linalg.elementwise",
                                _func(op, head, in_t, _shaped(2, oel, mem), mem),
                                f"{carrier}/{el}->{oel}"))
            continue
        if op.startswith("contract"):
            maps = ("indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
                    "affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]")
            for el, oel in MEMREF_TYPES if mem else TYPES:
                for attr in ("", UNSIGNED_CAST):
                    in_t = [_shaped(2, el, mem)] * 2
                    out.append(Case("linalg.contract",
                                    _func(op, f"linalg.contract {maps}{attr}", in_t,
                                          _shaped(2, oel, mem), mem),
                                    f"{carrier}/{el}->{oel}{attr and '/unsigned'}"))
            continue
        ranks, orank = RANKS[op]
        for el, oel in MEMREF_TYPES if mem else TYPES:
            for attr in ("", UNSIGNED_CAST) if op in CAST_ATTR_OPS else ("",):
                in_t = [_shaped(r, e, mem) for r, e in zip(ranks, _input_types(op, ranks, el),
                                                           strict=True)]
                out_t = _shaped(orank, oel, mem)
                if op in ("transpose", "broadcast"):
                    prop = "permutation = [1, 0]" if op == "transpose" else "dimensions = [1]"
                    text = _func(op, f"linalg.{op}", in_t, out_t, mem, tail=f" {prop}")
                else:
                    text = _func(op, f"linalg.{op}{attr}", in_t, out_t, mem)
                out.append(Case(f"linalg.{op}", text,
                                f"{carrier}/{el}->{oel}{attr and '/unsigned'}"))
        n = _window_rank(op)
        if n:
            # strides / dilations enter the (memoized) indexing maps
            in_t = [_shaped(r, "f32", mem) for r in ranks]
            st = ", ".join(str(2 + i) for i in range(n))
            dl = ", ".join(str(5 + i) for i in range(n))
            for attrs in (f"{{strides = dense<[{st}]> : tensor<{n}xi64>, "
                          f"dilations = dense<[{dl}]> : tensor<{n}xi64>}}",
                          f"{{dilations = dense<3> : vector<{n}xi64>}}"):
                out.append(Case(f"linalg.{op}", _func(op, f"linalg.{op} {attrs}", in_t,
                                                      _shaped(orank, "f32", mem), mem),
                                f"{carrier}/{attrs}"))
    return out


def _window_rank(op: str) -> int:
    """Spatial rank of a convolution / pooling with strides and dilations, else 0."""
    if op in ("conv_1d", "conv_2d", "conv_3d"):
        return 0
    if op.startswith("pooling_"):
        return len(op.split("_")[1]) - 2
    if "conv_" in op:
        return int(op.split("conv_", 1)[1][0])
    return 0


EXTRA_CASES = {
    # explicit (non-default) maps, strides and dilations, a static shape
    "extras": [
        "func.func @f(%a: tensor<8x4xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>) -> tensor<4x5xf32> {\n"
        "  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, "
        "affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] "
        "ins(%a, %b : tensor<8x4xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>\n"
        "  return %r : tensor<4x5xf32>\n}\n",
        "func.func @f(%i: tensor<1x9x9x3xf32>, %k: tensor<2x2x3x8xf32>, %o: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {\n"
        "  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, "
        "strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x9x9x3xf32>, tensor<2x2x3x8xf32>) "
        "outs(%o : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>\n  return %r : tensor<1x4x4x8xf32>\n}\n",
        "func.func @f(%i: memref<1x8x8x3xi8>, %k: memref<2x2xi8>, %o: memref<1x4x4x3xi32>) {\n"
        "  linalg.pooling_nhwc_max_unsigned {dilations = dense<1> : tensor<2xi64>, "
        "strides = dense<2> : tensor<2xi64>} ins(%i, %k : memref<1x8x8x3xi8>, memref<2x2xi8>) "
        "outs(%o : memref<1x4x4x3xi32>)\n  return\n}\n",
        "func.func @f(%v: f16, %o: memref<4xf16>) {\n"
        "  linalg.fill ins(%v : f16) outs(%o : memref<4xf16>)\n  return\n}\n",
        "func.func @f(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>, %az: i32, %bz: i32, %c: tensor<2x4xi32>) -> tensor<2x4xi32> {\n"
        "  %r = linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<2x3xi8>, tensor<3x4xi8>, i32, i32) "
        "outs(%c : tensor<2x4xi32>) -> tensor<2x4xi32>\n  return %r : tensor<2x4xi32>\n}\n",
    ],
}

OPS = sorted(RANKS) + [f"elementwise:{k}" for k in sorted(ELEMENTWISE_KINDS)] + ["contract"]


def _all_cases(op: str) -> list[Case]:
    if op == "extras":
        return [Case("linalg", t, f"extra{i}") for i, t in enumerate(EXTRA_CASES["extras"])]
    return cases_for(op)


def _ours(case: Case) -> str | GenericFormError:
    try:
        return print_module(parse(case.text, "snippet.mlir"), generic=True)
    except GenericFormError as e:
        return e


def check_op(mlir_opt: str, op: str) -> int:
    """Checks every case of ``op``; returns how many mlir-opt accepted."""
    cases = _all_cases(op)
    want = _split_run(mlir_opt, [c.text for c in cases], "--mlir-print-op-generic")
    ours = [_ours(c) for c in cases]
    accepted = [i for i, w in enumerate(want) if w]
    for c, w, o in zip(cases, want, ours, strict=True):
        if not w:
            assert isinstance(o, GenericFormError), (
                f"{c.label}: mlir-opt rejects\n{c.text}\nbut print --generic gave\n{o}")
            assert str(o.loc).startswith("snippet.mlir:2:"), (c.label, str(o))
        else:
            assert not isinstance(o, GenericFormError), f"{c.label}: {o}\n{c.text}"
    if not accepted:
        return 0
    again = _split_run(mlir_opt, [ours[i] for i in accepted], "--mlir-print-op-generic")
    for i, a in zip(accepted, again, strict=True):
        assert a == want[i], f"{cases[i].label}\n{cases[i].text}\nours:\n{ours[i]}"
    # reverse: mlir-opt's generic form -> our parser -> our custom printer
    customs = [print_module(parse(want[i], "generic.mlir")) for i in accepted]
    for i, text in zip(accepted, customs, strict=True):
        name = cases[i].op
        if name != "linalg":
            assert f'"{name}"' not in text and f"{name} " in text, (cases[i].label, text)
    ref = _split_run(mlir_opt, [cases[i].text for i in accepted])
    back = _split_run(mlir_opt, customs)
    for i, r, b in zip(accepted, ref, back, strict=True):
        assert b == r, f"{cases[i].label}: custom form after the generic round trip\n{b}"
    return len(accepted)


@pytest.mark.oracle
@pytest.mark.parametrize("op", [*OPS, "extras"])
def test_named_op_generic_form(mlir_opt: str, op: str) -> None:
    n = check_op(mlir_opt, op)
    assert n > 0, f"no element type combination of {op} is valid MLIR: the table is wrong"


def test_table_covers_every_named_op() -> None:
    known = {n.removeprefix("linalg.") for n in NAMED_OPS}
    assert known - {"elementwise", "contract"} <= set(RANKS)
    assert set(BINARY_FNS) | set(UNARY_FNS) <= set(ELEMENTWISE_KINDS)


# -- unsupported combinations: a located error, exit 1, nothing printed --------------------

BAD = """func.func @f(%a: tensor<4xi32>, %o: tensor<4xi32>) -> tensor<4xi32> {
  %r = linalg.exp ins(%a : tensor<4xi32>) outs(%o : tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
"""


def test_unsupported_fails_located(tmp_path: Path) -> None:
    f = tmp_path / "bad.mlir"
    f.write_text(BAD)
    r = subprocess.run([str(REPO / ".venv/bin/bufferlog"), "print", "--generic", str(f)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stdout == ""
    assert f"{f}:2:3: error: cannot print 'linalg.exp' in generic form" in r.stderr, r.stderr
    # the custom form still prints
    r = subprocess.run([str(REPO / ".venv/bin/bufferlog"), "print", str(f)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "linalg.exp ins(" in r.stdout


def test_foreign_body_stays_generic() -> None:
    """A named op written generically with a body that is not its implicit one cannot be
    printed in custom form without losing that body: it stays generic."""
    text = """func.func @f(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = "linalg.copy"(%a, %o) <{operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    out = print_module(parse(text))
    assert '"linalg.copy"' in out and "arith.negf" in out
    if mlir_opt_path():
        assert _generic(mlir_opt_path(), out) == _generic(mlir_opt_path(), text)
