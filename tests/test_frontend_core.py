"""Core parser/printer behaviour: types and attributes round-trip through their text,
SSA name forms and scoping, forward references, locations, aliases, printer naming."""

from __future__ import annotations

import subprocess

import pytest
from bufferlog.frontend import attrs as A
from bufferlog.frontend import types as T
from bufferlog.frontend.ir import Loc
from bufferlog.frontend.parser import MLIRSyntaxError, grammar_text, parse, parse_attr, parse_type
from bufferlog.frontend.printer import print_module
from hypothesis import given, settings
from hypothesis import strategies as st

# -- generated types ---------------------------------------------------------------------

scalars = st.one_of(
    st.builds(T.IntegerType, st.integers(1, 128), st.sampled_from(["", "s", "u"])),
    st.sampled_from([T.FloatType(n) for n in T.FLOAT_WIDTHS]),
    st.just(T.IndexType()),
)
dims = st.lists(st.one_of(st.none(), st.integers(0, 64)), max_size=4).map(tuple)
memspaces = st.one_of(st.none(), st.builds(A.IntegerAttr, st.integers(1, 5)),
                      st.just(A.OpaqueAttr("#gpu.address_space<workgroup>")))


def _strided(shape: tuple[int | None, ...]) -> st.SearchStrategy[A.StridedLayoutAttr]:
    return st.builds(A.StridedLayoutAttr,
                     st.lists(st.one_of(st.none(), st.integers(1, 9)), min_size=len(shape),
                              max_size=len(shape)).map(tuple),
                     st.one_of(st.none(), st.integers(0, 100)))


@st.composite
def memrefs(draw: st.DrawFn, elem: st.SearchStrategy[T.Type]) -> T.Type:
    shape = draw(dims)
    layout = draw(st.one_of(st.none(), _strided(shape)))
    return T.MemRefType(shape, draw(elem), layout, draw(memspaces))


def types_strategy() -> st.SearchStrategy[T.Type]:
    def extend(inner: st.SearchStrategy[T.Type]) -> st.SearchStrategy[T.Type]:
        elem = inner.filter(lambda t: not isinstance(t, T.FunctionType))
        return st.one_of(
            st.builds(T.TensorType, dims, elem),
            st.builds(T.UnrankedTensorType, elem),
            memrefs(scalars),
            st.builds(T.UnrankedMemRefType, scalars, memspaces),
            st.builds(lambda sh, sc, e: T.VectorType(tuple(sh), e, tuple(sc[:len(sh)])
                                                     if any(sc[:len(sh)]) else ()),
                      st.lists(st.integers(1, 16), min_size=1, max_size=3),
                      st.lists(st.booleans(), min_size=3, max_size=3), scalars),
            st.builds(T.ComplexType, st.sampled_from([T.FloatType("f32"), T.FloatType("f64")])),
            st.builds(lambda xs: T.TupleType(tuple(xs)), st.lists(inner, max_size=3)),
            st.builds(lambda i, o: T.FunctionType(tuple(i), tuple(o)),
                      st.lists(inner, max_size=2), st.lists(inner, max_size=2)),
        )
    return st.recursive(scalars, extend, max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(types_strategy())
def test_type_text_roundtrip(t: T.Type) -> None:
    s = str(t)
    assert str(parse_type(s)) == s
    if not isinstance(t, T.FunctionType):
        assert parse_type(s) == t


@pytest.mark.parametrize("text", [
    "tensor<*xf32>", "tensor<?x4x?xbf16>", "tensor<4xf32, \"enc\">", "memref<*xi8, 2>",
    "memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>",
    "memref<?xf32, strided<[1], offset: ?>>", "vector<[4]x[8]xi1>", "vector<f32>",
    "!llvm.struct<(ptr, array<2 x i64>)>", "!foo.bar<\"x>y\", 3>", "none",
    "(i32) -> ((i32) -> i32)", "() -> ()", "(i32, f32) -> (i64, i1)", "tuple<>",
    "complex<bf16>", "memref<f32>", "tensor<0x?xindex>", "si7", "ui64", "f8E8M0FNU",
])
def test_type_table(text: str) -> None:
    assert str(parse_type(text)) == text


# -- attributes --------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "1", "-7 : i8", "1.5 : f32", "-2.5e-05 : f64", "0xFF800000 : f32",
    "true", "false", "unit", '"s"', '"with \\"quotes\\" and \\\\"', '"x" : i32',
    "[]", "[1, [2, 3], \"a\"]", "{a, b = 1}", "{}", '{"quoted key" = 2}',
    "array<i64: 1, -2, 3>", "array<i32>", "array<i1: true, false>", "array<f64: 1.0, 2.5>",
    "dense<1.0> : tensor<4xf32>", "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
    'dense<"0xDEADBEEF"> : tensor<1xi32>', "dense_resource<blob> : tensor<4xf32>",
    "affine_map<(d0, d1) -> (d1 floordiv 2, d0 mod 4)>", "affine_map<() -> ()>",
    "affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>", "strided<[?, 1], offset: ?>",
    "strided<[4, 1]>", "strided<[]>", "@f", "@a::@b::@c", '@"quoted name"', "i32",
    "tensor<4xf32>", "(i32) -> f32", "#gpu.address_space<workgroup>",
    "#foo.attr<[1, 2], \"s\", <nested>>", "#linalg.iterator_type<parallel>",
])
def test_attr_table(text: str) -> None:
    assert str(parse_attr(text)) == text


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=0x2FF), max_size=20))
def test_string_attr_roundtrip(s: str) -> None:
    a = A.StringAttr(s)
    assert parse_attr(str(a)) == a


def test_hex_integer_is_normalised() -> None:
    assert str(parse_attr("0x10 : i32")) == "16 : i32"


def test_hex_float_value() -> None:
    a = parse_attr("0xFF800000 : f32")
    assert isinstance(a, A.FloatAttr) and a.value == float("-inf") and a.text == "0xFF800000"


# -- SSA names, scoping, forward references ---------------------------------------------

@pytest.mark.parametrize("name", ["arg0", "0", "foo_bar$1", "a.b", "x-y", "_", "cst_10"])
def test_ssa_name_forms(name: str) -> None:
    m = parse(f'%{name} = "t.a"() : () -> i32\n"t.b"(%{name}) : (i32) -> ()\n')
    a, b = m.body.ops
    assert a.results[0].name == name and b.operands[0] is a.results[0]


def test_result_groups_and_hash_uses() -> None:
    m = parse('%a, %b:2 = "t.a"() : () -> (i32, f32, i1)\n'
              '"t.b"(%b#1, %a, %b#0, %b) : (i1, i32, f32, f32) -> ()\n')
    a, b = m.body.ops
    r = a.results
    assert b.operands == [r[2], r[0], r[1], r[1]]


def test_sibling_regions_reuse_names_and_isolation() -> None:
    text = '''
func.func @f(%x: i32) {
  "t.two"() ({
    %0 = "t.a"(%x) : (i32) -> i32
    "t.y"() : () -> ()
  }, {
    %0 = "t.b"(%x) : (i32) -> i32
    "t.y"() : () -> ()
  }) : () -> ()
  return
}
func.func @g(%x: i32) {
  return
}
'''
    m = parse(text)
    f, g = m.functions()
    two = f.regions[0].entry.ops[0]
    a, b = (r.entry.ops[0] for r in two.regions)
    assert a.operands[0] is f.regions[0].entry.args[0] is b.operands[0]
    assert g.regions[0].entry.args[0] is not f.regions[0].entry.args[0]


def test_forward_value_and_block_refs() -> None:
    text = '''
func.func @f() -> i32 {
  cf.br ^bb2
^bb1:
  return %v : i32
^bb2:
  %v = arith.constant 1 : i32
  cf.br ^bb1
}
'''
    m = parse(text)
    f = m.functions()[0]
    b0, b1, b2 = f.regions[0].blocks
    assert b0.ops[0].successors == [b2] and b2.ops[1].successors == [b1]
    ret = b1.ops[0]
    assert ret.operands[0] is b2.ops[0].results[0]
    assert ret.operands[0].uses[0].op is ret


def test_op_locations() -> None:
    m = parse('// c\n  %0 = "t.a"() : () -> i32\n"t.b"(%0) : (i32) -> ()\n', "f.mlir")
    a, b = m.body.ops
    assert a.loc == Loc("f.mlir", 2, 3) and b.loc == Loc("f.mlir", 3, 1)
    f = parse("func.func @f(%a: i32) {\n    return\n}\n", "g").functions()[0]
    assert f.loc == Loc("g", 1, 1)
    assert f.regions[0].entry.ops[0].loc == Loc("g", 2, 5)
    assert f.regions[0].entry.args[0].loc == Loc("g", 1, 14)


def test_explicit_module_and_aliases() -> None:
    m = parse("#map = affine_map<(d0) -> (d0)>\nmodule @m {\n  \"t.a\"() {m = #map} : () -> ()\n}\n")
    assert m.explicit_module and m.module_op.attrs["sym_name"] == A.StringAttr("m")
    op = m.body.ops[0]
    assert op.attrs["m"] == A.AffineMapAttr("(d0) -> (d0)", "map")
    out = print_module(m)
    assert out.startswith("#map = affine_map<(d0) -> (d0)>\nmodule @m {")
    assert "{m = #map}" in out


def test_implicit_module_with_two_modules() -> None:
    m = parse("module {\n}\nmodule {\n}\n")
    assert not m.explicit_module and len(m.body.ops) == 2


def test_printer_renames_duplicates() -> None:
    text = ('"t.r"() ({\n  %0 = "t.a"() : () -> i32\n  "t.y"() : () -> ()\n}, {\n'
            '  %0 = "t.a"() : () -> i32\n  "t.y"(%0) : (i32) -> ()\n}) : () -> ()\n')
    out = print_module(parse(text))
    assert out.count("%0 =") == 1 and "%1 =" in out
    assert print_module(parse(out)) == out


def test_grammar_lists_every_family() -> None:
    g = grammar_text()
    line = next(ln for ln in g.splitlines() if ln.startswith("custom_op:"))
    for fam in ("builtin_func_op", "arith_math_cf_op"):
        assert fam in line
    assert line.rstrip().endswith("UNKNOWN_OP")


def test_error_carries_location() -> None:
    with pytest.raises(MLIRSyntaxError) as ei:
        parse('"t.a"(%nope) : (i32) -> ()\n', "z.mlir")
    assert str(ei.value.loc) == "z.mlir:1:7"


def test_declaration_with_named_args_roundtrips(mlir_opt, tmp_path):
    src = ("func.func private @p(%ptr : tensor<*xf32>)\n"
           "func.func private @q(%a: i32, %b: f32 {x.y = 1 : i32})\n")
    f = tmp_path / "decl.mlir"
    f.write_text(src)
    ours = tmp_path / "ours.mlir"
    ours.write_text(print_module(parse(src, str(f))))
    norm = [subprocess.run([mlir_opt, str(p)], capture_output=True, text=True, check=True).stdout
            for p in (f, ours)]
    assert norm[0] == norm[1]


def test_module_keeps_source_lines_for_messages():
    src = "func.func @f() {\n  return\n}\n"
    assert parse(src, "x.mlir").source_lines == src.splitlines()
