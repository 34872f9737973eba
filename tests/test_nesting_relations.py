"""The order and memory-write relations of rules/analysis/*.dl against their plain
definitions, computed here in Python from the module's structure.

The rules answer order questions with a walk from one op up to the closest block holding
the other (conflicts.dl), and follow a region op's reverse use-def chain only inside the
op, stepping over nested region ops (defs.dl): both so that nothing grows with the
square of the nesting depth. Here the same questions are answered the direct way: every
ancestor of both ops, every value on the whole chain. The definitions (mlir's
happensBefore, insideMutuallyExclusiveRegions and bufferizesToMemoryWrite of a region
op's result):

* ``happens_before(a, b)``: an ancestor of ``a`` (within its function, ``a`` included)
  lies in the same block as an ancestor of ``b`` and before it, or in a block of the same
  region that properly dominates the block of ``b``'s ancestor;
* ``exclusive_ops(a, b)``: ``a`` and ``b`` lie in different regions of one op whose
  regions are mutually exclusive;
* ``writes_memory(v)`` of a region op's result: some value on ``v``'s reverse use-def
  chain (through aliasing operands; not past unknown ops), defined inside the op, writes
  memory.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from bufferlog.engine import embedded
from bufferlog.engine.facts_io import validated
from bufferlog.engine.interface import load
from bufferlog.engine.oneshot import RULES_FILE
from bufferlog.engine.options import OneShotOptions
from bufferlog.frontend.facts import export

from bufferlog import api

try:
    from tests.gen_programs import generate
    from tests.oracle import shared_dir
    from tests.test_analysis_parity import MLIR_OPT, oracle, ours
except ImportError:  # tests/ on sys.path (rootdir-relative imports)
    from gen_programs import generate
    from oracle import shared_dir
    from test_analysis_parity import MLIR_OPT, oracle, ours
try:
    from benchmarks import gen_stress
except ImportError:  # tests/ alone on sys.path
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks import gen_stress

CORPUS = shared_dir() / "corpus"

#: relations asked of the rules: the ones under test, and the per-use facts they build on
ASKED = ["order_query", "happens_before", "exclusive_ops", "exclusive_region", "writes_memory",
         "use_alias", "tuse", "unknown_op", "result_no_write", "is_write", "has_aliasing_operand"]


def nested_loops_and_ifs(depth: int) -> str:
    """scf.for and scf.if nested in turn, each level writing the outer tensor and the
    loop's iteration tensor, and reading both after: order questions between every level
    and the top, in both directions."""
    t = "tensor<4xf32>"
    out = [f"func.func @main(%c: i1, %t0: {t}, %f: f32, %i: index, %n: index) -> ({t}, f32) {{",
           f"  %t = tensor.insert %f into %t0[%i] : {t}"]
    cur = "%t"
    for k in range(depth):
        if k % 2:
            out.append(f"  %r{k} = scf.if %c -> ({t}) {{")
            out.append(f"  %w{k} = tensor.insert %f into {cur}[%i] : {t}")
            inner_prev = f"%w{k}"
        else:
            out.append(f"  %r{k} = scf.for %j{k} = %i to %n step %i iter_args(%a{k} = {cur}) -> ({t}) {{")
            out.append(f"  %w{k} = tensor.insert %f into %a{k}[%j{k}] : {t}")
            inner_prev = f"%w{k}"
        out.append(f"  %x{k} = tensor.extract %t[%i] : {t}")
        cur = inner_prev
    out.append(f"  scf.yield {cur} : {t}")
    for k in reversed(range(depth)):
        if k % 2:
            out.append(f"  }} else {{\n  scf.yield %t : {t}\n  }}")
        else:
            out.append("  }")
        if k:
            out.append(f"  scf.yield %r{k} : {t}")
    out.append(f"  %x = tensor.extract %t[%i] : {t}")
    out.append(f"  return %r0, %x : {t}, f32\n}}")
    return "\n".join(out) + "\n"


#: the write that makes the outer scf.if's result write memory is outside the inner
#: scf.if: the inner result does not write memory, its chain leaves it to a write inside
#: the outer op (one level down: inside a loop too)
PAST_A_NESTED_OP = """func.func @main(%c: i1, %t: tensor<4xf32>, %f: f32, %i: index, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %r0 = scf.if %c -> (tensor<4xf32>) {
    %a = tensor.insert %f into %t[%i] : tensor<4xf32>
    %r1 = scf.if %c -> (tensor<4xf32>) {
      scf.yield %a : tensor<4xf32>
    } else {
      scf.yield %a : tensor<4xf32>
    }
    scf.yield %r1 : tensor<4xf32>
  } else {
    scf.yield %t : tensor<4xf32>
  }
  %l = scf.for %j = %i to %n step %i iter_args(%b = %t) -> (tensor<4xf32>) {
    %r2 = scf.if %c -> (tensor<4xf32>) {
      %w = tensor.insert %f into %b[%j] : tensor<4xf32>
      %r3 = scf.if %c -> (tensor<4xf32>) {
        scf.yield %w : tensor<4xf32>
      } else {
        scf.yield %w : tensor<4xf32>
      }
      scf.yield %r3 : tensor<4xf32>
    } else {
      scf.yield %b : tensor<4xf32>
    }
    scf.yield %r2 : tensor<4xf32>
  }
  return %r0, %l : tensor<4xf32>, tensor<4xf32>
}
"""


def nested_ifs_writing(depth: int) -> str:
    """scf.if nested ``depth`` deep, each level writing one tensor defined at the top, and
    a read of that tensor after them all (mlir-opt accepts it: the parity test below)."""
    t = "tensor<4xf32>"
    out = [f"func.func @main(%c: i1, %t0: {t}, %f: f32, %i: index) -> ({t}, f32) {{",
           f"  %t = tensor.insert %f into %t0[%i] : {t}"]
    for k in range(depth):
        out.append(f"  %r{k} = scf.if %c -> ({t}) {{")
        out.append(f"  %w{k} = tensor.insert %f into %t[%i] : {t}")
    out.append(f"  scf.yield %w{depth - 1} : {t}")
    for k in reversed(range(depth)):
        out.append(f"  }} else {{\n  scf.yield %t : {t}\n  }}")
        if k:
            out.append(f"  scf.yield %r{k} : {t}")
    out.append(f"  %x = tensor.extract %t[%i] : {t}")
    out.append(f"  return %r0, %x : {t}, f32\n}}")
    return "\n".join(out) + "\n"


def programs() -> list[tuple[str, str]]:
    out = [(f"nested_if {n}", gen_stress.nested_if(n)) for n in (1, 2, 7)]
    out.append(("past a nested op", PAST_A_NESTED_OP))
    out += [(f"nested ifs writing {n}", nested_ifs_writing(n)) for n in (2, 9)]
    out += [(f"nested loops and ifs {n}", nested_loops_and_ifs(n)) for n in (3, 8)]
    for p in sorted(CORPUS.rglob("*.mlir")):
        text = p.read_text()
        if any(k in text for k in ("scf.if", "cf.br", "cf.cond_br", "scf.forall", "scf.execute_region",
                                   "scf.index_switch", "scf.while")):
            out.append((str(p.relative_to(CORPUS)), text))
    tests = Path(__file__).resolve().parent
    for p in sorted(tests.glob("*/*.mlir")):
        text = p.read_text()
        if any(k in text for k in ("cf.br", "cf.cond_br", "scf.execute_region", "scf.index_switch")):
            out += [(f"{p.relative_to(tests)} #{k}", chunk)
                    for k, chunk in enumerate(text.split("// -----"))]
    for seed in range(6):
        out.append((f"generated {seed} cf forall", generate(seed, 12, cf=True, forall=True)))
    return out


class Structure:
    """The module's op tree, from its facts."""

    def __init__(self, rows: dict):
        self.block_of = {o: b for o, _, b, _ in rows["op"]}
        self.region_of = {b: r for b, r, _ in rows["block"]}
        self.parent_of_region = {r: p for r, p, _ in rows["region"]}
        self.funcs = {f for f, *_ in rows["func"]}
        self.span = dict(rows["op_span"])
        self.dom = self.block_dominance(rows)

    def parent(self, o: int) -> int | None:
        b = self.block_of.get(o, -1)
        return None if b < 0 else self.parent_of_region[self.region_of[b]]

    def ancestors(self, o: int) -> list[tuple[int, int, int, int]]:
        """(x, block, region, parent op) for `o` and each op enclosing it inside its
        function, whose parent is not the module."""
        out = []
        x = o
        while x is not None and self.block_of.get(x, -1) >= 0:
            b = self.block_of[x]
            r = self.region_of[b]
            p = self.parent_of_region[r]
            if p == 0:
                break
            out.append((x, b, r, p))
            if p in self.funcs:
                break
            x = p
        return out

    def block_dominance(self, rows: dict) -> set[tuple[int, int]]:
        """(d, b): block d properly dominates block b of its region (multi-block regions:
        the entry dominates every other block; another block d dominates b when b cannot
        be reached from the entry without passing d)."""
        succ = defaultdict(set)
        for t, _, s in rows["successor"]:
            succ[self.block_of[t]].add(s)
        blocks = defaultdict(dict)
        for b, r, k in rows["block"]:
            blocks[r][k] = b
        out = set()
        for by_index in blocks.values():
            if len(by_index) < 2:
                continue
            entry = by_index[0]
            for b in by_index.values():
                if b != entry:
                    out.add((entry, b))
            for k, d in by_index.items():
                if k == 0:
                    continue
                seen, todo = {entry}, [entry]
                while todo:
                    for s in succ[todo.pop()]:
                        if s != d and s not in seen:
                            seen.add(s)
                            todo.append(s)
                out |= {(d, b) for b in by_index.values() if b != d and b not in seen}
        return out

    def happens_before(self, a: int, b: int) -> bool:
        for x, bx, _, _ in self.ancestors(a):
            for y, by, _, _ in self.ancestors(b):
                if (bx == by and x < y) or (bx, by) in self.dom:
                    return True
        return False

    def exclusive(self, a: int, b: int, exclusive_regions: set[int]) -> bool:
        return any(p == q and r != s and r in exclusive_regions
                   for _, _, r, p in self.ancestors(a) for _, _, s, q in self.ancestors(b))


def memory_writes(rows: dict, rel: dict[str, set], through_nested: bool = True) -> set[int]:
    """writes_memory by its definition: block arguments, unknown ops' results, results
    without an aliasing operand (but tensor.empty's), results of writing uses, and region
    op results whose whole reverse use-def chain reaches a memory write inside the op.
    (``through_nested`` False: the chain stops at the results of region ops, which only
    the test of the test programs below uses.)"""
    tensor = {v for (v,) in rows["tensor"]}
    result_op = {v: o for v, o, _ in rows["result"]}
    owner = dict(result_op)
    for v, b, _ in rows["block_arg"]:
        r = next(r for bb, r, _ in rows["block"] if bb == b)
        owner[v] = next(p for rr, p, _ in rows["region"] if rr == r)
    span = dict(rows["op_span"])
    unknown = {o for (o,) in rel["unknown_op"]}
    aliased_by = defaultdict(list)  # result -> operand values of the uses aliasing it
    tuse = {(o, i): v for o, i, v in rel["tuse"]}
    for o, i, v, _ in rel["use_alias"]:
        aliased_by[v].append(tuse[(o, i)])
    wm = {v for v, _, _ in rows["block_arg"] if v in tensor}
    wm |= {v for v, o in result_op.items() if v in tensor and o in unknown}
    no_alias = {v for v in result_op if v in tensor} - {v for (v,) in rel["has_aliasing_operand"]}
    wm |= no_alias - {v for (v,) in rel["result_no_write"]}
    writes = set(rel["is_write"])
    wm |= {v for o, i, v, _ in rel["use_alias"] if (o, i) in writes}
    region_results = [v for v, o in result_op.items() if v in tensor and span[o] > o]
    chains = {}
    for v in region_results:
        seen, todo = set(), list(aliased_by[v])
        while todo:
            x = todo.pop()
            if x in seen:
                continue
            seen.add(x)
            if x in result_op and result_op[x] not in unknown and (
                    through_nested or span[result_op[x]] == result_op[x]):
                todo += aliased_by[x]
        o = result_op[v]
        chains[v] = {x for x in seen if o < owner[x] <= span[o]}
    grew = True
    while grew:
        grew = False
        for v, inside in chains.items():
            if v not in wm and inside & wm:
                wm.add(v)
                grew = True
    return wm


@pytest.mark.parametrize("name,text", programs(), ids=lambda x: x if len(x) < 60 else None)
def test_order_and_memory_writes_match_their_definitions(name, text):
    prog = load(RULES_FILE, None)
    rows = export(api.parse(text, name)).rows
    funcs = [(f,) for f, _, _, decl in rows["func"] if not decl]
    facts = validated(prog, {**rows, **OneShotOptions().rule_facts(), "check_func": funcs})
    rel = embedded.evaluate(prog, facts, ASKED)
    s = Structure(rows)
    exclusive_regions = {r for (r,) in rel["exclusive_region"]}
    queries = sorted(rel["order_query"])
    assert {q for q in queries if s.happens_before(*q)} == rel["happens_before"]
    assert {q for q in queries if s.exclusive(*q, exclusive_regions)} == rel["exclusive_ops"]
    assert {(v,) for v in memory_writes(rows, rel)} == rel["writes_memory"]


def test_the_programs_ask_every_kind_of_question():
    """The programs above reach each case: an op happening before another and not, in
    one block and across blocks of a CFG region, found from either op, in exclusive
    regions, and region results that write memory only through a value past a nested
    region op's result."""
    prog = load(RULES_FILE, None)
    seen = defaultdict(int)
    for name, text in programs():
        rows = export(api.parse(text, name)).rows
        funcs = [(f,) for f, _, _, decl in rows["func"] if not decl]
        facts = validated(prog, {**rows, **OneShotOptions().rule_facts(), "check_func": funcs})
        rel = embedded.evaluate(prog, facts, ["order_query", "happens_before", "exclusive_ops",
                                              "block_dom", "walk_from"])
        s = Structure(rows)
        for a, b in rel["happens_before"]:
            seen["before"] += 1
            seen["before, walked from the later op"] += (b, a) in rel["walk_from"]
            seen["before, across blocks"] += s.block_of[a] != s.block_of[b] and any(
                (bx, by) in s.dom for _, bx, _, _ in s.ancestors(a) for _, by, _, _ in s.ancestors(b))
        seen["not before"] += len(rel["order_query"] - rel["happens_before"])
        seen["exclusive"] += len(rel["exclusive_ops"])
        more = embedded.evaluate(prog, facts, ASKED)
        seen["writes memory past a nested region op"] += len(
            memory_writes(rows, more) - memory_writes(rows, more, through_nested=False))
    assert all(seen[k] > 0 for k in ("before", "before, walked from the later op", "before, across blocks",
                                     "not before", "exclusive", "writes memory past a nested region op")
               ), dict(seen)


@pytest.mark.oracle
@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 not installed")
@pytest.mark.parametrize("text", [PAST_A_NESTED_OP, gen_stress.nested_if(40), nested_ifs_writing(40)],
                         ids=["past a nested op", "nested_if 40", "nested ifs writing 40"])
def test_deep_nesting_decides_as_mlir_opt(text):
    expected = oracle(text)
    assert expected is not None
    assert ours(text) == expected
