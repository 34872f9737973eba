"""The affine dialect and affine maps (frontend/affine.py, frontend/dialects/affine.py,
frontend/verify_affine.py) against mlir-opt-22.

* Round trip: every program of tests/affine/ -- as written, as mlir-opt prints it and in
  its generic form -- printed by bufferlog is accepted by mlir-opt, which prints it as it
  prints the original.
* Affine maps checked as mlir-opt checks them: seeded random maps (well-formed, broken by
  a token, and products / divisions whose operands cancel out) get the same verdict and,
  when rejected, the same message at the same line:col.
* Invalid affine ops: each rejected by both tools at the same place with the same
  message.
* Facts: a memref program with buffers allocated in affine.if branches and affine.for
  bodies is deallocated by ``bufferlog dealloc`` and runs leak-free, printing what
  mlir-opt's pipeline prints, with no more allocations; a tiled tensor program with
  affine.min / affine.apply gets mlir-opt's in-place decisions and its bufferized form
  prints what mlir-opt's pipeline prints.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import oracle
import pytest
from bufferlog.frontend.affine import AffineError, parse_map, parse_set, wrong_token_offset
from bufferlog.frontend.parser import MLIRSyntaxError, parse
from bufferlog.frontend.printer import print_module

HERE = Path(__file__).resolve().parent
PROGRAMS = sorted((HERE / "affine").glob("*.mlir"))
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")
_ERR = re.compile(r"<stdin>:(\d+):(\d+): error: (.*)")


def _mlir_opt(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([oracle.MLIR_OPT, "--allow-unregistered-dialect", *args, "-"],
                          input=text, capture_output=True, text=True, timeout=60)


def _theirs(text: str) -> tuple[str, str] | None:
    r = _mlir_opt(text)
    if r.returncode == 0:
        return None
    m = _ERR.search(r.stderr)
    assert m, r.stderr
    return f"{m.group(1)}:{m.group(2)}", m.group(3)


def _ours(text: str) -> tuple[str, str] | None:
    try:
        parse(text, "t.mlir")
    except MLIRSyntaxError as e:
        return f"{e.loc.line}:{e.loc.col}", e.message
    return None


# -- round trip ------------------------------------------------------------------------

@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_round_trip_through_mlir_opt(path: Path) -> None:
    text = path.read_text()
    want = _mlir_opt(text)
    assert want.returncode == 0, want.stderr
    generic = _mlir_opt(text, "--mlir-print-op-generic").stdout
    for name, src in (("written", text), ("mlir-opt's", want.stdout), ("generic", generic)):
        for gen in (False, True):
            ours = print_module(parse(src, f"{path.name} ({name})"), generic=gen)
            got = _mlir_opt(ours)
            assert got.returncode == 0, (name, gen, got.stderr, ours)
            assert got.stdout == want.stdout, (name, gen)


def test_structure() -> None:
    m = parse_map("(i, j)[n] -> (i * 2 + n floordiv 4, j mod 3, -(i - j), 7)")
    assert (m.num_dims, m.num_syms, len(m.results)) == (2, 1, 4)
    assert m.results[2] == ("neg", ("-", ("d", 0), ("d", 1)))
    assert m.simplified[3] == ("c", 7)
    assert parse_map("() -> (3, 4)").constant_results() == [3, 4]
    assert parse_map("()[s0] -> (s0)").is_symbol_identity()
    assert parse_map("(d0, d1) -> (d1, d0)").result_dims() == [1, 0]
    s = parse_set("(d0)[s0] : (d0 >= s0, d0 == 3, d0 <= 10)")
    assert (s.num_dims, s.num_syms, [c[3] for c in s.constraints]) == (1, 1, [False, True, False])
    assert parse_set("(d0) : ()").constraints[0][3]  # the empty set is 0 == 0


# -- affine maps against mlir-opt --------------------------------------------------------

def _random_expr(rng: random.Random, depth: int, nd: int, ns: int) -> str:
    if depth > 3 or rng.random() < 0.3:
        c = rng.random()
        if c < 0.4 and nd:
            return f"d{rng.randrange(nd)}"
        if c < 0.6 and ns:
            return f"s{rng.randrange(ns)}"
        return str(rng.choice([0, 1, 2, 3, 4, 8, 64, -1]))
    op = rng.choice(["+", "-", "*", "floordiv", "ceildiv", "mod", "neg", "paren"])
    if op == "neg":
        return "-" + _random_expr(rng, depth + 1, nd, ns)
    if op == "paren":
        return "(" + _random_expr(rng, depth + 1, nd, ns) + ")"
    return f"{_random_expr(rng, depth + 1, nd, ns)} {op} {_random_expr(rng, depth + 1, nd, ns)}"


_ATOMS = ["d0", "d1", "s0", "2", "4", "d0 * 2", "d1 * 4", "(d0 + 1)", "d0 mod 2",
          "d0 floordiv 2", "(d0 * 4)", "(d1 + d0)", "s0 * 2", "-d0", "d0 ceildiv 4"]


def _cancelling(rng: random.Random) -> str:
    """``a op (b +- c)`` where b and c often cancel: affine or not only once simplified."""
    a = rng.choice(_ATOMS)
    b = a if rng.random() < 0.6 else rng.choice(_ATOMS)
    inner = f"({a} {rng.choice(['-', '+', '- -1 *', 'mod', 'floordiv'])} {b})"
    if rng.random() < 0.3:
        inner = f"({inner} {rng.choice(['-', '+'])} {rng.choice(_ATOMS)})"
    outer = rng.choice(["*", "floordiv", "ceildiv", "mod"])
    return f"(d0, d1)[s0] -> ({rng.choice(_ATOMS)} {outer} {inner})"


def _random_map(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return _cancelling(rng)
    nd, ns = rng.randrange(3), rng.randrange(2)
    head = "(" + ", ".join(f"d{i}" for i in range(nd)) + ")"
    if ns:
        head += "[" + ", ".join(f"s{i}" for i in range(ns)) + "]"
    body = head + " -> (" + ", ".join(_random_expr(rng, 0, nd, ns)
                                      for _ in range(rng.randrange(1, 3))) + ")"
    if rng.random() < 0.5:  # break it: drop, replace or add a token
        toks = body.split(" ")
        i = rng.randrange(len(toks))
        k = rng.random()
        if k < 0.4:
            del toks[i]
        elif k < 0.7:
            toks[i] = rng.choice(["d9", "*", "(", ")", ",", "1.5", "+", "mod", ""])
        else:
            toks.insert(i, rng.choice(["d0", "*", "(", ")", "+"]))
        body = " ".join(toks)
    return body


MAP_SAMPLES = int(os.environ.get("BUFFERLOG_AFFINE_MAPS", "150"))
MAP_SEED = int(os.environ.get("BUFFERLOG_MUTATION_SEED", "20240611"))
_PREFIX = "func.func @f() attributes {m = affine_map<"


@needs_oracle
@pytest.mark.oracle
def test_random_maps_judged_like_mlir_opt() -> None:
    """Both verdicts and, for a rejected map, message and column are mlir-opt's
    (``BUFFERLOG_AFFINE_MAPS`` maps, 150 by default; 3,000 agreed when written)."""
    rng = random.Random(MAP_SEED)
    bodies = [_random_map(rng) for _ in range(MAP_SAMPLES)]
    # a body ending in '-' would lex as '->' with the closing '>' in mlir-opt
    bodies = [b for b in bodies if not b.rstrip().endswith("-")]
    bad = []
    for b in bodies:
        theirs = _theirs(f"{_PREFIX}{b}>}} {{ return }}\n")
        try:
            parse_map(b)
            ours = None
        except AffineError as e:
            off = wrong_token_offset(b, e.offset) if e.at_previous else e.offset
            ours = (f"1:{len(_PREFIX) + off + 1}", e.message)
        if ours != theirs:
            bad.append(f"{b!r}: ours {ours}, mlir-opt {theirs}")
    assert not bad, "\n".join(bad)


# -- invalid ops --------------------------------------------------------------------------

INVALID = [
    ("map_not_affine", """func.func @f(%i: index) -> index {
  %a = affine.apply affine_map<(d0, d1) -> (d0 * d1)>(%i, %i)
  return %a : index
}
""", "non-affine expression: at least one of the multiply operands"),
    ("map_undeclared", """#m = affine_map<(d0) -> (d0 + d1)>
func.func @f(%i: index) -> index {
  %a = affine.apply #m(%i)
  return %a : index
}
""", "use of undeclared identifier"),
    ("map_mod_by_dim", """func.func @f(%m: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %a = affine.load %m[%i mod %i] : memref<4xf32>
  }
  return
}
""", "non-affine expression: right operand of mod has to be either a constant or symbolic"),
    ("map_is_a_set", """func.func @f(%i: index) -> index {
  %a = affine.apply affine_map<(d0) : (d0 >= 0)>(%i)
  return %a : index
}
""", "expected AffineMap, but got IntegerSet"),
    ("set_no_relation", """func.func @f(%i: index) {
  affine.if affine_set<(d0) : (d0 + 1)>(%i) {
  }
  return
}
""", "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"),
    ("map_redefined_dim", """func.func @f() attributes {m = affine_map<(d0, d0) -> (d0)>} {
  return
}
""", "redefinition of identifier 'd0'"),
    ("apply_operand_count", """func.func @f(%i: index) -> index {
  %a = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)
  return %a : index
}
""", "dimension or symbol index mismatch"),
    ("min_operand_count", """func.func @f(%i: index) -> index {
  %a = affine.min affine_map<(d0, d1) -> (d0, d1)>(%i)
  return %a : index
}
""", "operand count and affine map dimension and symbol count must match"),
    ("max_no_result", """func.func @f(%i: index) -> index {
  %a = affine.max affine_map<(d0) -> ()>(%i)
  return %a : index
}
""", "affine map expect at least one result"),
    ("bound_needs_min", """func.func @f(%i: index) {
  affine.for %k = 0 to affine_map<(d0) -> (d0, 4)>(%i) {
  }
  return
}
""", "upper loop bound affine map with multiple results requires 'min' prefix"),
    ("bound_dim_count", """func.func @f(%i: index) {
  affine.for %k = affine_map<(d0, d1) -> (d0 + d1)>(%i) to 8 {
  }
  return
}
""", "dim operand count and affine map dim count must match"),
    ("negative_step", """func.func @f() {
  affine.for %k = 0 to 8 step -1 {
  }
  return
}
""", "expected step to be representable as a positive signed integer"),
    ("bound_not_symbol", """func.func @f() {
  affine.for %i = 0 to 4 {
    affine.for %k = 0 to %i {
    }
  }
  return
}
""", "'affine.for' op operand cannot be used as a symbol"),
    ("load_not_dim", """func.func @f(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %a = affine.load %m[%k] : memref<4xf32>
  }
  return
}
""", "'affine.load' op operand cannot be used as a dimension id"),
    ("load_iv_as_symbol", """func.func @f(%m: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    %a = affine.load %m[symbol(%i)] : memref<4xf32>
  }
  return
}
""", "'affine.load' op operand cannot be used as a symbol"),
    ("load_rank", """func.func @f(%m: memref<4x4xf32>, %i: index) -> f32 {
  %a = affine.load %m[%i] : memref<4x4xf32>
  return %a : f32
}
""", "'affine.load' op affine map num results must equal memref rank"),
    ("store_rank", """func.func @f(%m: memref<4xf32>, %v: f32, %i: index) {
  affine.store %v, %m[%i, %i] : memref<4xf32>
  return
}
""", "'affine.store' op affine map num results must equal memref rank"),
    ("store_value_type", """func.func @f(%m: memref<4xf32>, %v: i32) {
  affine.store %v, %m[0] : memref<4xf32>
  return
}
""", "use of value '%v' expects different type than prior uses: 'f32' vs 'i32'"),
    ("subscript_not_index", """func.func @f(%m: memref<4xf32>, %i: i32) -> f32 {
  %a = affine.load %m[%i] : memref<4xf32>
  return %a : f32
}
""", "use of value '%i' expects different type than prior uses: 'index' vs 'i32'"),
    ("subscript_bad_token", """func.func @f(%m: memref<4xf32>, %i: index) -> f32 {
  %a = affine.load %m[%i + ] : memref<4xf32>
  return %a : f32
}
""", "missing right operand of binary operator"),
    ("yield_outside", """func.func @f(%c: i1) {
  scf.if %c {
    affine.yield
  }
  return
}
""", "'affine.yield' op only terminates affine.if/for/parallel regions"),
    ("yield_count", """func.func @f(%x: f32) -> f32 {
  %r = affine.for %i = 0 to 4 iter_args(%a = %x) -> (f32) {
    affine.yield
  }
  return %r : f32
}
""", "'affine.yield' op parent of yield must have same number of results as the yield "
     "operands"),
    ("yield_type", """func.func @f(%x: f32, %y: i32) -> f32 {
  %r = affine.for %i = 0 to 4 iter_args(%a = %x) -> (f32) {
    affine.yield %y : i32
  }
  return %r : f32
}
""", "'affine.yield' op types mismatch between yield op and its parent"),
    ("if_results_no_else", """func.func @f(%x: f32, %i: index) -> f32 {
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%i) -> f32 {
    affine.yield %x : f32
  }
  return %r : f32
}
""", "'affine.if' op along control flow edge from parent to parent: region branch point "
     "has 0 operands, but region successor needs 1 inputs"),
    ("if_set_dims", """func.func @f(%i: index) {
  affine.if affine_set<(d0, d1) : (d0 - d1 >= 0)>(%i) {
  }
  return
}
""", "dim operand count and integer set dim count must match"),
    ("apply_of_a_set", """#s = affine_set<(d0) : (d0 >= 0)>
func.func @f(%i: index) -> index {
  %a = affine.apply #s(%i)
  return %a : index
}
""", "invalid kind of attribute specified"),
    ("generic_apply_two_results", """func.func @f(%i: index) -> (index, index) {
  %a:2 = "affine.apply"(%i) {map = affine_map<(d0) -> (d0, d0)>} : (index) -> (index, index)
  return %a#0, %a#1 : index, index
}
""", "'affine.apply' op requires one result"),
    ("generic_apply_two_map_results", """func.func @f(%i: index) -> index {
  %a = "affine.apply"(%i) {map = affine_map<(d0) -> (d0, d0)>} : (index) -> index
  return %a : index
}
""", "'affine.apply' op mapping must produce one value"),
    ("generic_load_subscripts", """func.func @f(%m: memref<4xf32>, %i: index) -> f32 {
  %a = "affine.load"(%m, %i, %i) {map = affine_map<(d0) -> (d0)>} : (memref<4xf32>, index, index) -> f32
  return %a : f32
}
""", "'affine.load' op expects as many subscripts as affine map inputs"),
]


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("case", INVALID, ids=[c[0] for c in INVALID])
def test_invalid_rejected_like_mlir_opt(case: tuple[str, str, str]) -> None:
    name, text, fragment = case
    ours, theirs = _ours(text), _theirs(text)
    assert ours is not None, f"{name}: accepted"
    assert theirs is not None, f"{name}: mlir-opt-22 accepts it"
    assert fragment in ours[1], ours
    assert fragment in theirs[1], theirs
    assert ours[0] == theirs[0], (ours, theirs)


VALID = [
    ("symbols_from_above", """func.func @f(%m: memref<4xf32>, %b: i1) {
  %c = "test.val"() : () -> index
  scf.if %b {
    %a = affine.load %m[%c] : memref<4xf32>
  }
  return
}
"""),
    ("dim_op_as_symbol", """func.func @f(%m: memref<?xf32>, %b: i1) {
  %c0 = arith.constant 0 : index
  scf.if %b {
    %d = memref.dim %m, %c0 : memref<?xf32>
    affine.for %i = 0 to %d {
      %a = affine.load %m[%i + symbol(%d) - symbol(%d)] : memref<?xf32>
    }
  }
  return
}
"""),
    ("module_level_symbols", """%c = "test.val"() : () -> index
%m = "test.mem"() : () -> memref<4xf32>
%a = affine.load %m[%c] : memref<4xf32>
"""),
    ("apply_of_dims_is_a_dim", """func.func @f(%m: memref<16xf32>) {
  affine.for %i = 0 to 4 {
    %j = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%i)
    %a = affine.load %m[%j] : memref<16xf32>
  }
  return
}
"""),
    ("step_zero", """func.func @f() {
  affine.for %i = 0 to 4 step 0 {
  }
  return
}
"""),
    ("zero_division_kept", """func.func @f(%i: index) -> index {
  %a = affine.apply affine_map<(d0) -> (d0 floordiv 0 + d0 mod (d0 - d0))>(%i)
  return %a : index
}
"""),
]


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("case", VALID, ids=[c[0] for c in VALID])
def test_valid_accepted_like_mlir_opt(case: tuple[str, str]) -> None:
    name, text = case
    assert _ours(text) is None, _ours(text)
    assert _theirs(text) is None


# -- facts: deallocation and bufferization --------------------------------------------------

@needs_runner
@pytest.mark.oracle
def test_dealloc_of_affine_if_and_for_runs_like_mlir_opt() -> None:
    from bufferlog.backend.dealloc import deallocate

    path = HERE / "affine" / "run_dealloc_if.mlir"
    text = path.read_text()
    module = parse(text, path.name)
    deallocate(module)
    ours = print_module(module)
    got = oracle.run_program(ours)
    want = oracle.run_program(oracle.reference_deallocate(text))
    assert got.clean, got.stderr
    assert got.data == want.data
    assert got.allocs <= want.allocs


@needs_runner
@pytest.mark.oracle
def test_tiled_tensor_program_like_mlir_opt() -> None:
    from bufferlog.backend.bufferize import bufferize
    from test_analysis_parity import oracle as analysis_oracle
    from test_analysis_parity import ours as analysis_ours

    path = HERE / "affine" / "run_tiled.mlir"
    text = path.read_text()
    assert analysis_ours(text, path.name) == analysis_oracle(text)
    got = oracle.run_program(print_module(bufferize(parse(text, path.name))))
    want = oracle.run_reference(text)
    assert got.clean, got.stderr
    assert got.masked_stdout == want.masked_stdout
