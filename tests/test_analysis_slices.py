"""``--z3-slices`` (engine/slices.py): conflicts between slices that Z3 proves disjoint or
equal are dropped. Hand-written programs where mlir-opt copies and bufferlog does not;
the bufferized program still prints what the copy-before-write reference prints."""

from __future__ import annotations

import functools

import pytest
from bufferlog.engine import oneshot
from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.frontend.parser import parse

try:
    from tests import oracle as tools
except ImportError:  # tests/ on sys.path (rootdir-relative imports)
    import oracle as tools

PRINT = "func.func private @printMemrefF32(tensor<*xf32>)\n"

# writes [%i, %i+4) of %t (extract_slice + fill + insert_slice), then reads [%i+4, %i+8)
# and the element %i+5: disjoint for every %i, so no copy is needed
SYMBOLIC = """func.func @g(%t: tensor<16xf32>, %i: index, %v: f32) -> (tensor<16xf32>, tensor<4xf32>, f32) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %j = arith.addi %i, %c4 : index
  %k = arith.addi %i, %c5 : index
  %a = tensor.extract_slice %t[%i] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %w into %t[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
  %b = tensor.extract_slice %t[%j] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %c = linalg.copy ins(%b : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %t[%k] : tensor<16xf32>
  return %r, %c, %x : tensor<16xf32>, tensor<4xf32>, f32
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %e = tensor.empty() : tensor<16xf32>
  %t0 = linalg.fill ins(%one : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %t = tensor.insert %two into %t0[%c0] : tensor<16xf32>
  %r:3 = call @g(%t, %c3, %two) : (tensor<16xf32>, index, f32) -> (tensor<16xf32>, tensor<4xf32>, f32)
  %s = tensor.from_elements %r#2 : tensor<1xf32>
  %u = tensor.cast %r#0 : tensor<16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %r#1 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  %w = tensor.cast %s : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%w) : (tensor<*xf32>) -> ()
  return
}
""" + PRINT

# static 2-D: fill rows [0, 2) of a 4x4 tensor, then read rows [2, 4); the later
# extract at %c1 + %c1 matches the insert at 2 (mlir and bufferlog both prove it)
STATIC = """func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.addi %c1, %c1 : index
  %one = arith.constant 1.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %t = linalg.fill ins(%one : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %lo = tensor.extract_slice %t[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %w = linalg.fill ins(%two : f32) outs(%lo : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = tensor.insert_slice %w into %t[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %hi = tensor.extract_slice %t[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %c = linalg.copy ins(%hi : tensor<2x4xf32>) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = tensor.extract_slice %r[%c2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %m2 = linalg.fill ins(%two : f32) outs(%m : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r2 = tensor.insert_slice %m2 into %r[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  %u = tensor.cast %r2 : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %c : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
""" + PRINT

# [%i, %i+4) written, [%i+2, %i+6) read: overlapping, the conflict must stay
OVERLAP = SYMBOLIC.replace("%c4 = arith.constant 4", "%c4 = arith.constant 2").replace(
    "%c5 = arith.constant 5", "%c5 = arith.constant 3")

PROGRAMS = {"symbolic": SYMBOLIC, "static": STATIC}


def decisions(text: str, z3: bool) -> list[tuple[str, list[str]]]:
    _, an, dec = analyze_module(parse(text, "<slices>"), engine="embedded", z3_slices=z3)
    return [(an.name[o], v) for o, v in operand_annotations(an, dec).items()]


def copies(ds) -> int:
    return sum(v.count("false") for _, v in ds)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_z3_slices_remove_copies(name):
    text = PROGRAMS[name]
    off, on = decisions(text, False), decisions(text, True)
    assert copies(on) < copies(off)
    # only slice ops and their writers change, from out of place to in place
    for (n, a), (_, b) in zip(off, on, strict=True):
        assert all(x == y or (x, y) == ("false", "true") for x, y in zip(a, b, strict=True)), n


def test_overlapping_slices_keep_the_copy():
    assert decisions(OVERLAP, True) == decisions(OVERLAP, False)
    assert copies(decisions(OVERLAP, True)) > 0


def test_prover_terms():
    from bufferlog.engine.slices import SliceProver

    _, an, _ = analyze_module(parse(SYMBOLIC, "<s>"), engine="embedded", z3_slices=True)
    p = SliceProver(an)
    ex = sorted(o for o in an.subset_extract)
    a, b = ex[0], ex[1]  # [%i, +4) and [%i + 4, +4)
    assert p._disjoint_subsets(p.params(a), p.params(b))
    assert not p._disjoint_subsets(p.params(a), p.params(a))
    ins = next(o for o in an.subset_insert if o not in an.whole_insert)
    assert p.equal(a, ins) and not p.equal(b, ins)


def test_optimal_uses_z3_slices_by_default():
    _, an, _ = analyze_module(parse(STATIC, "<s>"), strategy="optimal", engine="embedded")
    assert an.z3_slices
    _, an, _ = analyze_module(parse(STATIC, "<s>"), engine="embedded")
    assert not an.z3_slices


@pytest.mark.oracle
@pytest.mark.skipif(not tools.available(run=False), reason="mlir-opt-22 missing")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_mlir_copies_where_we_do_not(name):
    text = PROGRAMS[name]
    theirs = tools.inplace_decisions(tools.reference_analysis(text))
    assert decisions(text, False) == theirs  # parity without the option
    assert copies(decisions(text, True)) < copies(theirs)


@pytest.mark.oracle
@pytest.mark.skipif(not tools.available(), reason="mlir-opt-22/mlir-runner-22 missing")
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_execution_matches_semantic_reference(name, monkeypatch):
    from bufferlog.backend.bufferize import bufferize
    from bufferlog.frontend.printer import print_module

    # the backend analyses with analyze_module's defaults: turn the option on
    monkeypatch.setattr(oneshot, "analyze_module",
                        functools.partial(oneshot.analyze_module, z3_slices=True))
    text = PROGRAMS[name]
    got = tools.run_program(print_module(bufferize(parse(text, name))), count=True)
    sem = tools.run_semantic(text)
    assert got.returncode == 0 and got.clean, got.stderr[-2000:]
    assert got.data and got.data == sem.data
