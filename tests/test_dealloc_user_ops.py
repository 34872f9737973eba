"""Teaching deallocation an op: memory effects (read, write, alloc, free, view) given as
facts in a ``--rules`` directory reach ``dealloc`` the way op facts reach the analysis.

An unregistered op cannot run, so the execution tests replace each test op, in
bufferlog's output and in the input alike, by an op or call with the effects its facts
describe (``test.new_buffer`` by a call to a private function returning a fresh
allocation, ``test.fill`` by ``linalg.fill``, ``test.copy`` by ``memref.copy``,
``test.window`` by a ``memref.subview``, ``test.release`` by ``memref.dealloc``). The
rewritten output must then run leak- and double-free-free and print what the rewritten
input prints; where the input has no free, it must also cost no more at run time than
mlir-opt's pipeline on the rewritten input. Region ops described as ``scf.if``-like are
checked against the same program written with ``scf.if``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402
import runtime_cost as rc  # noqa: E402
from bufferlog.backend.dealloc import deallocate  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402

from bufferlog.core import UserError  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "examples" / "memrules"
EXAMPLE = REPO / "examples" / "test_ops.mlir"
needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-runner-22 missing")

NEW_BUFFER = """
func.func private @new_buffer() -> memref<4xf32> {
  %m = memref.alloc() : memref<4xf32>
  return %m : memref<4xf32>
}
"""


def dealloc(text: str, rules: Path | None = RULES) -> str:
    m = parse(text, "<user-ops>")
    deallocate(m, rules_dir=rules)
    return print_module(m)


_OP = re.compile(r'^(\s*)(?:(%[\w.#]+) = )?"(test\.\w+)"\(([^)]*)\) : \(([^)]*)\) -> \(?([^()\n]*?)\)?\s*$', re.M)


def known(text: str) -> str:
    """``text`` with every test op replaced by a known op of the same effects."""
    def sub(m: re.Match) -> str:
        ind, res, name, args, types, rtype = m.groups()
        a = [x.strip() for x in args.split(",") if x.strip()]
        t = [x.strip() for x in oracle._split_top(types)]
        if name == "test.new_buffer":
            return f"{ind}{res} = func.call @new_buffer() : () -> {rtype}"
        if name == "test.fill":
            return f"{ind}linalg.fill ins({a[0]} : {t[0]}) outs({a[1]} : {t[1]})"
        if name == "test.copy":
            return f"{ind}memref.copy {a[0]}, {a[1]} : {t[0]} to {t[1]}"
        if name == "test.window":
            return f"{ind}{res} = memref.subview {a[0]}[1] [2] [1] : {t[0]} to {rtype}"
        if name == "test.release":
            return f"{ind}memref.dealloc {a[0]} : {t[0]}"
        raise AssertionError(name)
    out = _OP.sub(sub, text)
    assert '"test.' not in out, out
    return out + NEW_BUFFER


def test_unknown_without_rules_is_a_located_error() -> None:
    with pytest.raises(UserError) as e:
        dealloc(EXAMPLE.read_text(), rules=None)
    assert "ops with unknown memory side effects" in e.value.message
    assert (e.value.loc.line, e.value.loc.col) == (4, 8)


def test_effects_place_the_frees() -> None:
    """The new buffer is freed after its last reader (the copy out of its window, then the
    copy of it), the released one is not freed again, the plain allocation is freed."""
    out = dealloc(EXAMPLE.read_text())
    assert out.count("memref.dealloc") == 2
    assert re.search(r'"test\.copy"\(%a, %t\).*\n\s*memref\.dealloc %a :', out)
    assert "memref.dealloc %t" not in out and '"test.release"(%t)' in out
    assert re.search(r"call @printMemrefF32.*\n\s*memref\.dealloc %b :", out)
    oracle.mlir_opt(out, "--allow-unregistered-dialect")


@needs_runner
@pytest.mark.oracle
def test_example_runs_like_its_known_twin() -> None:
    text = EXAMPLE.read_text()
    got = rc.measure(known(dealloc(text)))
    want = oracle.run_program(known(text), count=True)  # the input frees only %t: it leaks
    assert got.clean, got
    assert got.values == want.masked_stdout and "[2,  2]" in got.stdout


FRESH_ONLY = """
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %x = arith.constant 1.5 : f32
  %acc = memref.alloc() : memref<2xf32>
  "test.fill"(%x, %acc) : (f32, memref<2xf32>) -> ()
  scf.for %i = %c0 to %c3 step %c1 {
    %a = "test.new_buffer"() : () -> memref<4xf32>
    "test.fill"(%x, %a) : (f32, memref<4xf32>) -> ()
    %w = "test.window"(%a) : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>>
    %s = memref.alloc() : memref<2xf32>
    "test.copy"(%w, %s) : (memref<2xf32, strided<[1], offset: 1>>, memref<2xf32>) -> ()
    linalg.add ins(%s, %acc : memref<2xf32>, memref<2xf32>) outs(%acc : memref<2xf32>)
  }
  %u = memref.cast %acc : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
"""


@needs_runner
@pytest.mark.oracle
@pytest.mark.parametrize("trips", [1, 100])
def test_user_ops_cost_no_more_than_mlir_opt_on_their_twin(trips: int) -> None:
    """No frees in the input: mlir-opt deallocates the known twin; ours, deallocated with
    the test ops and then rewritten, prints the same and allocates and copies no more."""
    text = rc.with_trip_count(FRESH_ONLY, trips)
    got = rc.measure(known(dealloc(text)))
    ref = rc.mlir_opt_dealloc(known(text))
    assert ref is not None
    want = rc.measure(ref)
    assert got.clean and want.returncode == 0
    assert got.values == want.values
    assert got.alloc_bytes <= want.alloc_bytes and got.copy_bytes <= want.copy_bytes


REGION_RULES = """
mem_region_branch("test.pick").
mem_yield("test.pick_yield").
mem_write("test.fill", 1).
"""

PICK = """
func.func @f(%c: i1, %x: f32, %arg: memref<4xf32>) -> memref<4xf32> {
  %o = memref.alloc() : memref<4xf32>
  "test.fill"(%x, %o) : (f32, memref<4xf32>) -> ()
  %r = "test.pick"(%c) ({
    %n = memref.alloc() : memref<4xf32>
    "test.fill"(%x, %n) : (f32, memref<4xf32>) -> ()
    "test.pick_yield"(%n) : (memref<4xf32>) -> ()
  }, {
    "test.pick_yield"(%arg) : (memref<4xf32>) -> ()
  }) : (i1) -> memref<4xf32>
  "test.fill"(%x, %o) : (f32, memref<4xf32>) -> ()
  return %r : memref<4xf32>
}
"""


def test_region_op_described_like_scf_if(tmp_path: Path) -> None:
    """A region op described as running one of its regions once (``mem_region_branch``)
    with its own terminator (``mem_yield``) gets the indicators, clones and frees scf.if
    gets in the same program."""
    (tmp_path / "pick.dl").write_text(REGION_RULES)
    mine = dealloc(PICK, rules=tmp_path)
    as_if = PICK.replace('"test.pick"(%c) ({', "scf.if %c -> memref<4xf32> {").replace(
        "}, {", "} else {").replace("}) : (i1) -> memref<4xf32>", "}")
    as_if = re.sub(r'"test\.pick_yield"\((%\w+)\) : \(memref<4xf32>\) -> \(\)', r"scf.yield \1 : memref<4xf32>", as_if)
    ref = dealloc(as_if, rules=tmp_path)

    def shape(text: str) -> str:  # the two spellings of one op, made one
        text = re.sub(r'"test\.pick_yield"\(([^)]*)\) : \([^)]*\) -> \(\)', r"YIELD \1", text)
        text = re.sub(r"scf\.yield (.*?) : .*", r"YIELD \1", text)
        text = re.sub(r'= "test\.pick"\(%c\) \(\{|= scf\.if %c -> .* \{', "= IF {", text)
        text = re.sub(r"\}, \{|\} else \{", "ELSE", text)
        return re.sub(r"\}\) : \(i1\) -> .*", "}", text)

    assert shape(mine) == shape(ref), (mine, ref)
    assert "memref.dealloc %o" in mine and re.search(r"%r, %\d+ = \"test\.pick\"", mine)  # an indicator
    assert "bufferization.clone %r" in mine  # returned under it: cloned when not owned


THEN_ELSE_JOIN = """
// a then/else/join op: its operands enter the then and the else region, one of which
// runs; what it yields enters the join region; what the join yields is the result
mem_region_flow("my.region_if", -1, 0, 0, 0).
mem_region_flow("my.region_if", -1, 1, 0, 0).
mem_region_flow("my.region_if", 0, 2, 0, 0).
mem_region_flow("my.region_if", 1, 2, 0, 0).
mem_region_flow("my.region_if", 2, -1, 0, 0).
mem_yield("my.region_if_yield").
mem_read("my.use", 0).
"""

REGION_IF = """
func.func @inner(%n: index) -> memref<?xf32> {
  %0 = memref.alloc(%n) : memref<?xf32>
  %1 = "my.region_if"(%0) ({
  ^bb0(%a: memref<?xf32>):
    "my.region_if_yield"(%a) : (memref<?xf32>) -> ()
  }, {
  ^bb0(%a: memref<?xf32>):
    %t = memref.alloc(%n) : memref<?xf32>
    "my.use"(%t) : (memref<?xf32>) -> ()
    "my.region_if_yield"(%a) : (memref<?xf32>) -> ()
  }, {
  ^bb0(%a: memref<?xf32>):
    "my.region_if_yield"(%a) : (memref<?xf32>) -> ()
  }) : (memref<?xf32>) -> memref<?xf32>
  return %1 : memref<?xf32>
}
"""


def test_region_flow_op_of_three_regions(tmp_path: Path) -> None:
    """An op whose operands flow through a then or an else region into a join region and
    out (``mem_region_flow``): the allocation travels through and is returned as is, the
    else region's temporary is freed in it, nothing else is freed."""
    (tmp_path / "region_if.dl").write_text(THEN_ELSE_JOIN)
    out = dealloc(REGION_IF, rules=tmp_path)
    assert out.count("memref.dealloc") == 1
    assert re.search(r'"my\.use"\(%t\).*\n\s*memref\.dealloc %t', out)
    assert "bufferization.clone" not in out and "return %1 :" in out
    oracle.mlir_opt(out, "--allow-unregistered-dialect")
