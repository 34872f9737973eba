"""The copies a layout or type change forces (rules/layouts.dl), against mlir-opt-22's own
verifier and under mlir-runner.

- For random pairs of memref types, ``memref.cast`` between them verifies exactly when
  the rules find no reason to copy (a dynamic stride or offset cast to a static one
  aside: it verifies, but could fail at run time, so the rules copy).
- For random strided types and reassociations, ``memref.collapse_shape`` into the type
  built from the rules' answer verifies when the rules find the groups contiguous, and
  fails with MLIR's non-contiguity error when they find two static strides that
  disagree.
- Programs whose bufferization needs such a copy (a strided slice returned or yielded
  where an identity layout is expected, a collapse of a non-contiguous slice, a reshape
  of a slice) print what mlir-opt's copy-before-write reference prints, with no leak.
"""

from __future__ import annotations

import random
import re
import subprocess

import pytest
from bufferlog.backend.layout_questions import LayoutQuestions
from bufferlog.backend.layouts import collapsed_type
from bufferlog.frontend import types as T
from bufferlog.frontend.attrs import IntegerAttr, StridedLayoutAttr

import bufferlog

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

needs_opt = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")

F32, F16 = T.FloatType("f32"), T.FloatType("f16")
SPACE1 = IntegerAttr(1, T.IntegerType(64))


def _strided(rng: random.Random, rank: int, elem=F32):
    shape = tuple(rng.choice([None, 0, 1, 1, 2, 3, 4, 5]) for _ in range(rank))
    if rng.random() < 0.25:
        return T.MemRefType(shape, elem)
    strides = tuple(rng.choice([None, 0, 1, 1, 2, 3, 4, 6, 12, 20, 60]) for _ in range(rank))
    return T.MemRefType(shape, elem, StridedLayoutAttr(strides, rng.choice([None, 0, 0, 5])))


def _groups(rng: random.Random, rank: int) -> list[list[int]]:
    cuts = sorted(rng.sample(range(1, rank), rng.randint(0, rank - 1))) if rank > 1 else []
    bounds = [0, *cuts, rank]
    return [list(range(a, b)) for a, b in zip(bounds, bounds[1:], strict=False)]


def _collapsed_shape(t, groups) -> list:
    shape = []
    for g in groups:
        n = 1
        for d in g:
            n = None if n is None or t.shape[d] is None else n * t.shape[d]
        shape.append(n)
    return shape


def _cases(seed: int, n: int):
    """(MLIR function text, verdict): ``verdict`` is "ok", "cast" (cast incompatible),
    "collapse" (non-contiguous) or "unknown" (not provably contiguous)."""
    rng, q = random.Random(seed), LayoutQuestions()
    for k in range(n):
        rank = rng.randint(1, 4)
        if k % 2:
            t = _strided(rng, rank)
            if t.layout is None:
                continue
            groups = _groups(rng, rank)
            why, refs = q.collapse(t, groups)
            shape = _collapsed_shape(t, groups)
            if why is None:
                rt = collapsed_type(t, shape, refs)
            else:  # any result type: the verifier must find the groups non-contiguous
                rt = T.MemRefType(tuple(shape), F32, StridedLayoutAttr((None,) * len(shape), None))
            reassoc = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
            op = f"%r = memref.collapse_shape %m {reassoc} : {t} into {rt}"
            # MLIR's verifier rejects only groups it sees to be non-contiguous from static
            # strides; one that is unknown (a dynamic stride or size) it lets pass, where
            # bufferization (MLIR's isGuaranteedCollapsible, and these rules) copies
            verdict = "ok" if why is None else "collapse" if why.startswith("stride") else "unknown"
            yield f"func.func @c{k}(%m: {t}) {{\n  {op}\n  return\n}}", verdict
        else:
            have = _strided(rng, rank)
            want = _strided(rng, rank if rng.random() < 0.9 else rank + 1, F32 if rng.random() < 0.95 else F16)
            if rng.random() < 0.1:
                want = T.MemRefType(want.shape, want.elem, want.layout, SPACE1)
            if rng.random() < 0.1:
                have = T.UnrankedMemRefType(have.elem)
            why = q.cast_blocked(have, want)
            op = f"%r = memref.cast %m : {have} to {want}"
            # a dynamic stride or offset cast to a static one verifies (it is checked at
            # run time); bufferization copies instead, as MLIR's castOrReallocMemRefValue
            verdict = "ok" if why is None else "unknown" if why.startswith("dynamic") else "cast"
            yield f"func.func @k{k}(%m: {have}) {{\n  {op}\n  return\n}}", verdict


@needs_opt
@pytest.mark.parametrize("seed", [1, 2])
def test_rules_agree_with_mlir_verifier(seed, tmp_path):
    """Every verdict of rules/layouts.dl is mlir-opt-22's: a cast or collapse the rules
    allow verifies, one they refuse fails with the matching error."""
    cases = list(_cases(seed, 400))
    text, lines = [], {}
    at = 1
    for fn, verdict in cases:
        lines[at + 1] = (fn, verdict)
        text.append(fn)
        at += fn.count("\n") + 2
    path = tmp_path / "layouts.mlir"
    path.write_text("\n// -----\n".join(text) + "\n")
    proc = subprocess.run([oracle.MLIR_OPT, "--split-input-file", str(path)],
                          capture_output=True, text=True, timeout=120)
    errors = {int(m.group(1)): m.group(2) for m in
              re.finditer(rf"^{re.escape(str(path))}:(\d+):\d+: error: (.*)$", proc.stderr, re.M)}
    assert set(errors) <= set(lines), proc.stderr[:2000]
    kinds = {"cast": "cast incompatible", "collapse": "collapsing non-contiguous dims"}
    wrong = []
    for line, (fn, verdict) in lines.items():
        err = errors.get(line)
        if verdict == "unknown":
            continue
        if (verdict == "ok") != (err is None) or (err is not None and kinds[verdict] not in err):
            wrong.append((fn, verdict, err))
    assert not wrong, "\n".join(map(repr, wrong[:5]))
    assert {v for _, v in cases} >= {"ok", "cast", "collapse"}  # every verdict was met


PROGRAMS = {
    # a strided slice returned where the identity layout is expected
    "returned_slice": """
func.func @slice(%t: tensor<4x4xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[0, 1] [4, 1] [1, 1] : tensor<4x4xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @main() {
  %c = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]> : tensor<4x4xf32>
  %r = func.call @slice(%c) : (tensor<4x4xf32>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
""",
    # a non-contiguous slice collapsed, and a reshape of a slice
    "collapse_and_reshape": """
func.func @main() {
  %c = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %s = tensor.extract_slice %c[0, 1] [3, 2] [1, 1] : tensor<3x4xf32> to tensor<3x2xf32>
  %f = tensor.collapse_shape %s [[0, 1]] : tensor<3x2xf32> into tensor<6xf32>
  %u = tensor.cast %f : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %shape = arith.constant dense<[2, 3]> : tensor<2xindex>
  %r = tensor.reshape %s(%shape) : (tensor<3x2xf32>, tensor<2xindex>) -> tensor<2x3xf32>
  %v = tensor.cast %r : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
""",
    # a loop yields a strided slice of a fresh tensor into an identity iteration argument
    "yielded_slice": """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %init = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %init) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4x2xf32>
    %f = linalg.fill ins(%one : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
    %w = tensor.insert_slice %a into %f[0, 1] [4, 1] [1, 1] : tensor<4xf32> into tensor<4x2xf32>
    %s = tensor.extract_slice %w[0, 1] [4, 1] [1, 1] : tensor<4x2xf32> to tensor<4xf32>
    %x = tensor.insert %one into %s[%i] : tensor<4xf32>
    scf.yield %x : tensor<4xf32>
  }
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
""",
}


@needs_runner
@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_forced_copies_run_like_reference(name, strategy):
    """Each program needs a copy that only a layout forces; bufferlog's output makes it,
    mlir-opt accepts the output, and it prints the reference's values with no leak."""
    text = PROGRAMS[name]
    out = bufferlog.bufferize(text, strategy=strategy)
    assert any("layout" in c.cause or "contiguous" in c.cause or "reshape" in c.cause
               for c in bufferlog.explain_copies(text, strategy=strategy).copies if c.cause)
    got = oracle.run_program(out.text)
    want = oracle.run_semantic(text)
    assert got.clean, got.stderr[-2000:]
    assert got.data == want.data and got.data.strip()
