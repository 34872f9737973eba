"""Round-trip property against the oracle: ``mlir-opt F`` and
``mlir-opt <(bufferlog print F)`` print identical text, for every corpus file and for
family-agnostic snippets written here (both sides use --allow-unregistered-dialect)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module
from conftest import CORPUS_FILES


def _opt(mlir_opt: str, text: str) -> str:
    r = subprocess.run([mlir_opt, "--allow-unregistered-dialect", "-"], input=text,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def check_roundtrip(mlir_opt: str, text: str, name: str = "-", generic: bool = False) -> str:
    printed = print_module(parse(text, name), generic=generic)
    assert _opt(mlir_opt, printed) == _opt(mlir_opt, text), printed
    return printed


@pytest.mark.oracle
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_roundtrip(mlir_opt: str, path: Path) -> None:
    check_roundtrip(mlir_opt, path.read_text(), str(path))


SNIPPETS = {
    "generic_unknown_ops": '''
"test.outer"() ({
^bb0(%a: i32):
  %0:2 = "foo.pair"(%a) {k = 1 : i64} : (i32) -> (i32, f32)
  %1 = "foo.use"(%0#1, %0#0) : (f32, i32) -> i64
  "foo.inner"(%1) ({
    %2 = "foo.x"() : () -> i1
    "foo.term"(%2) : (i1) -> ()
  }, {
    %2 = "foo.y"() : () -> i1
    "foo.term"(%2) : (i1) -> ()
  }) : (i64) -> ()
  "foo.done"() : () -> ()
}) : () -> ()
''',
    "multiple_results_names": '''
func.func @f() -> (i32, i32, f32) {
  %a, %b:2 = "foo.three"() : () -> (i32, i32, f32)
  %foo_bar$1 = "foo.id"(%b#0) : (i32) -> i32
  return %a, %foo_bar$1, %b#1 : i32, i32, f32
}
''',
    "aliases": '''
#map = affine_map<(d0, d1) -> (d1, d0)>
#map1 = affine_map<(d0)[s0] -> (d0 + s0)>
#set = affine_set<(d0) : (d0 - 10 >= 0, d0 == 0)>
!vec = vector<[4]x8xf32>
!t = tensor<4x?xf32>
func.func @g(%x: !t, %v: !vec) -> !t attributes {m = #map, m1 = #map1, s = #set} {
  %0 = "foo.op"(%x) {map = #map, layout = #map1} : (!t) -> !t
  return %0 : !t
}
''',
    "locations": '''
#loc = loc("a.py":1:2)
#loc1 = loc("b.py":3:4)
func.func @h(%a: i32 loc("x.mlir":1:1), %b: i32 loc(#loc)) -> i32 {
  %0 = arith.addi %a, %b : i32 loc(#loc1)
  %1 = "foo.op"(%0) : (i32) -> i32 loc(fused["a":1:2, callsite("f" at "g":3:4)])
  %2 = arith.muli %1, %1 : i32 loc(unknown)
  return %2 : i32 loc("name"("file":5:6))
} loc(#loc)
''',
    "resource_blob": '''
module {
  func.func @r() -> tensor<2xf32> {
    %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
''',
    "tricky_attributes": '''
func.func @attrs() attributes {
    s = "quote\\" back\\\\ tab\\09 nl\\n", h = 0x7FC00000 : f32, neg = -3 : i8, f = -1.5e-3 : f64,
    arr = [1, [true, false], {a, b = unit}, @sym::@nested, @"quoted sym"],
    da = array<i64: -9223372036854775808, 0, 7>, db = array<i1: true, false>, de = array<f32>,
    dense = dense<[[1.0, 2.0], [3.5, -4.0]]> : tensor<2x2xf32>, splat = dense<0x7F800000> : vector<4xf32>,
    hexd = dense<"0x0000803F00000040"> : tensor<2xf32>,
    ty = tuple<i32, complex<f64>, none>, fn = (i32, index) -> (f32, memref<*xf32, 1>),
    st = strided<[?, 1], offset: ?>, st0 = strided<[4, 1]>, ms = #gpu.address_space<workgroup>,
    "quoted key" = 1 : ui16, e = f8E4M3FN} {
  return
}
''',
    "hex_float_constants": '''
func.func @c() -> (f32, f64, f16, bf16) {
  %0 = arith.constant 0xFF800000 : f32
  %1 = arith.constant 0x7FF8000000000000 : f64
  %2 = arith.constant 0x7C00 : f16
  %3 = arith.constant -0.0 : bf16
  return %0, %1, %2, %3 : f32, f64, f16, bf16
}
''',
    "types": '''
func.func private @types(tensor<*xf32>, memref<4x?xf32, strided<[?, 1], offset: ?>, 3>,
    memref<2x3xi8, affine_map<(d0, d1) -> (d1, d0)>>, vector<2x[4]xsi16>, complex<f32>,
    tuple<>, !llvm.ptr, tensor<0x4xindex>, memref<f64>, tensor<i1>, ui8, i1,
    f8E5M2, f6E3M2FN, tf32, f80, f128, (i32) -> ((f32) -> ())) -> (none, index)
''',
    "cf_graph_forward_refs": '''
func.func @cfg(%c: i1, %n: index) -> index {
  cf.cond_br %c, ^bb2(%n : index), ^bb3
^bb1(%x: index, %y: f32):
  %s = arith.addi %x, %z : index
  cf.br ^bb4(%s : index)
^bb2(%a: index):
  %z = arith.constant 3 : index
  %f = arith.constant 1.0 : f32
  cf.br ^bb1(%a, %f : index, f32)
^bb3:
  %k = arith.constant 0 : index
  cf.br ^bb4(%k : index)
^bb4(%r: index):
  cf.assert %c, "must \\"hold\\""
  return %r : index
}
''',
    "func_forms": '''
module @outer attributes {foo.bar = 3 : i32} {
  func.func @w(%a: tensor<4xf32> {bufferization.writable = false}, %b: i32) -> (tensor<4xf32> {foo.res}, i32) {
    return %a, %b : tensor<4xf32>, i32
  }
  func.func nested @n() attributes {llvm.emit_c_interface} {
    %0:2 = call @w2() : () -> (i32, i32)
    func.call @n() : () -> ()
    %f = func.constant @n : () -> ()
    func.call_indirect %f() : () -> ()
    return
  }
  func.func private @w2() -> (i32, i32)
  module @inner {
  }
}
''',
    "arith_math_forms": '''
func.func @ops(%a: f32, %b: f32, %i: i32, %j: i32, %v: vector<4xf32>, %t: tensor<2xi64>) -> () {
  %0 = arith.addf %a, %b fastmath<fast> : f32
  %1 = arith.mulf %0, %b fastmath<nnan,ninf> : f32
  %2 = arith.addi %i, %j overflow<nsw, nuw> : i32
  %3 = arith.cmpf ult, %a, %b fastmath<fast> : f32
  %4 = arith.cmpi sge, %i, %j : i32
  %5 = arith.select %3, %a, %b : f32
  %6 = arith.cmpf oeq, %v, %v : vector<4xf32>
  %7 = arith.select %6, %v, %v : vector<4xi1>, vector<4xf32>
  %8 = arith.sitofp %i : i32 to f32
  %9 = arith.extf %a : f32 to f64
  %10 = arith.truncf %9 : f64 to f16
  %11 = arith.index_cast %i : i32 to index
  %12 = arith.negf %a fastmath<contract> : f32
  %13 = math.fma %a, %b, %0 : f32
  %14 = math.fpowi %a, %i : f32, i32
  %15 = math.powf %a, %b fastmath<afn> : f32
  %16 = math.isnan %a : f32
  %17 = math.absi %i : i32
  %18 = arith.maximumf %a, %b : f32
  %19 = arith.constant dense<[1, 2]> : tensor<2xi64>
  %20 = arith.cmpi eq, %t, %19 : tensor<2xi64>
  %21 = arith.constant true
  %22 = arith.constant -7 : i32
  %23 = arith.bitcast %a : f32 to i32
  %24 = arith.shli %i, %j overflow<nsw> : i32
  %25 = math.rsqrt %v fastmath<fast> : vector<4xf32>
  return
}
''',
}


@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_roundtrip(mlir_opt: str, name: str) -> None:
    check_roundtrip(mlir_opt, SNIPPETS[name], name)


@pytest.mark.oracle
@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_roundtrip_generic(mlir_opt: str, name: str) -> None:
    check_roundtrip(mlir_opt, SNIPPETS[name], name, generic=True)


@pytest.mark.oracle
def test_resource_section_verbatim(mlir_opt: str) -> None:
    text = SNIPPETS["resource_blob"]
    out = check_roundtrip(mlir_opt, text)
    start = text.index("{-#")
    assert text[start:].strip() in out


def test_printer_is_a_fixpoint() -> None:
    for name, text in SNIPPETS.items():
        once = print_module(parse(text, name))
        assert print_module(parse(once, name)) == once, name
