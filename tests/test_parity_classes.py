"""Parity cases of our own for each kind of input where bufferlog once disagreed with
mlir-opt-22 (tests/parity_classes): ops described by user rules next to tensor code,
affine custom syntax, `arith.index_cast` and `vector.gather` on tensors, memory spaces,
loops that pass their own carried value on, and the decisions bufferlog once made less
conservatively than mlir-opt (the region arguments of unknown ops, an external
function's results, recursive functions).

Every file: bufferlog's in-place decisions equal mlir-opt-22's op by op, with the
One-Shot options of its ``// one-shot:`` line and the rules directory of its ``// rules:``
line (benchmarks/bench_parity.py counts them as the ``classes`` suite). The ``run_*``
files have a ``@main``: bufferized by bufferlog and run under mlir-runner-22 with the
counting allocator, they print what mlir-opt-22's copy-before-write reference prints.
Unknown ops and external functions cannot run as written, so the run gives them one
behaviour each, the same in bufferlog's output and in the reference's input: an unknown
op runs its region once on its operand (the region is inlined), and an external function
is linked with bodies that return its argument, a fresh copy or both, or write it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.engine.options import parse_pass_options
from bufferlog.frontend.parser import parse

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

HERE = Path(__file__).parent / "parity_classes"
REPO = Path(__file__).resolve().parent.parent
CASES = sorted(HERE.glob("*.mlir"))
BOUNDARIES = "bufferize-function-boundaries"
pytestmark = [pytest.mark.oracle,
              pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")]
needs_runner = pytest.mark.skipif(not oracle.available(), reason="mlir-runner-22 missing")


def one_shot(text: str) -> str:
    """The One-Shot options of a case: its ``// one-shot:`` line, else function boundaries."""
    m = re.search(r"^// one-shot: (.*)$", text, re.M)
    return m.group(1).strip() if m else BOUNDARIES


def rules_of(text: str) -> Path | None:
    m = re.search(r"^// rules: (\S+)$", text, re.M)
    return REPO / m.group(1) if m else None


def ours(text: str, name: str) -> list:
    # the string means what it means to mlir-opt (what it leaves out: mlir-opt's defaults)
    _, an, dec = analyze_module(parse(text, name), engine="embedded", rules_dir=rules_of(text),
                                options=parse_pass_options(one_shot(text)))
    ann = operand_annotations(an, dec)
    return [(an.name[o], ann[o]) for o in sorted(ann, key=lambda o: an.loc[o][1:])]


def theirs(text: str) -> list:
    osb = f"{one_shot(text)} test-analysis-only allow-return-allocs-from-loops"
    # vector.mask's custom form hides its yield, and the yield's decision with it
    generic = ["--mlir-print-op-generic"] if "vector.mask" in text else []
    return oracle.inplace_decisions(oracle.mlir_opt(text, "--allow-unregistered-dialect",
                                                    f"--one-shot-bufferize={osb}", *generic))


def test_every_class_has_cases():
    stems = [p.stem for p in CASES]
    for prefix in ("userop_", "affine_", "index_cast_", "gather_", "space_", "loop_", "while_",
                   "unknown_", "external_", "recursive_"):
        assert any(s.startswith(prefix) or s.startswith("run_" + prefix) for s in stems), prefix


#: cases where bufferlog decides otherwise on purpose, each op that differs as
#: (op, bufferlog's decisions, mlir-opt's): an external function may return one buffer
#: for two results (its argument twice, say); mlir-opt 22 writes one of them in place
#: while the other is read later (run_external_split prints the clobbered value under
#: mlir-opt's pipeline), bufferlog copies (docs/analysis.md, "Intentional difference")
DIFFERS = {
    "external_two_results_write_one": [("tensor.insert", ["none", "false", "none"], ["none", "true", "none"])],
    "external_read_only_two_results": [("func.call", ["true"], ["false"]),
                                       ("tensor.insert", ["none", "false", "none"], ["none", "true", "none"])],
    "run_external_split": [("tensor.insert", ["none", "false", "none"], ["none", "true", "none"])],
}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_decisions_equal_mlir_opt(path: Path):
    """Identical op by op, except where DIFFERS says, and there exactly as it says."""
    text = path.read_text()
    want, got = theirs(text), ours(text, str(path))
    assert want and [n for n, _ in got] == [n for n, _ in want]
    differing = [(n, a, b) for (n, a), (_, b) in zip(got, want, strict=True) if a != b]
    assert differing == DIFFERS.get(path.stem, [])


# ------------------------------------------------------------------ execution

RUNS = [p for p in CASES if p.stem.startswith("run_")]
_SSA = r"%[\w.$]+(?:#\d+)?"


def _rename(text: str, old: str, new: str) -> str:
    return re.sub(re.escape(old) + r"(?![\w.$#])", new, text)


def inline_regions(text: str, op: str = "foo.apply", term: str = "foo.yield") -> str:
    """``text`` (as mlir-opt prints it: one op per line) with every ``op`` replaced by the
    body of its single-block region, the block's argument bound to the op's operand and
    the op's result to the value its ``term`` yields: the op runs its region once on its
    operand. The body's values are renamed apart (mlir-opt names the values of each
    unregistered op's region afresh)."""
    lines, out, results = text.splitlines(), [], {}
    k = 0
    n = 0
    while k < len(lines):
        m = re.match(rf'^(\s*)(?:({_SSA}) = )?"{re.escape(op)}"\(({_SSA})\) \(\{{\s*$', lines[k])
        if m is None:
            out.append(lines[k])
            k += 1
            continue
        indent, res, operand = m.groups()
        arg = re.match(rf"^\s*\^bb0\(({_SSA}): [^)]*\):\s*$", lines[k + 1]).group(1)
        end = next(j for j in range(k + 2, len(lines)) if lines[j].startswith(indent + "})"))
        *body, last = lines[k + 2:end]
        for name in {m.group(1) for b in body if (m := re.match(r"^\s*(%[\w.$]+)(?::\d+)? = ", b))}:
            n += 1
            body, last = [_rename(b, name, f"%inl{n}") for b in body], _rename(last, name, f"%inl{n}")
        yielded = re.match(rf'^\s*"{re.escape(term)}"\(([^)]*)\)', last).group(1).split(",")
        out += [_rename(b, arg, operand) for b in body]
        if res is not None:
            results[res] = yielded[0].strip()
        k = end + 1
    text = "\n".join(out) + "\n"
    for res, value in results.items():
        text = _rename(text, res, value)
    return text


#: bodies linked for the external function of run_external_split: (tensor level, memref level)
SPLIT_BODIES = {
    "arg_twice": ("return %t, %t : tensor<4xf32>, tensor<4xf32>",
                  "return %m, %m : memref<4xf32>, memref<4xf32>"),
    "writes_arg": ("%c3 = arith.constant 3 : index\n  %f = arith.constant 5.0 : f32\n"
                   "  %w = tensor.insert %f into %t[%c3] : tensor<4xf32>\n"
                   "  return %w, %w : tensor<4xf32>, tensor<4xf32>",
                   "%c3 = arith.constant 3 : index\n  %f = arith.constant 5.0 : f32\n"
                   "  memref.store %f, %m[%c3] : memref<4xf32>\n"
                   "  return %m, %m : memref<4xf32>, memref<4xf32>"),
    "arg_and_copy": ("%c = bufferization.alloc_tensor() copy(%t) : tensor<4xf32>\n"
                     "  return %t, %c : tensor<4xf32>, tensor<4xf32>",
                     "%c = memref.alloc() : memref<4xf32>\n  memref.copy %m, %c : memref<4xf32> to memref<4xf32>\n"
                     "  return %m, %c : memref<4xf32>, memref<4xf32>"),
    "two_copies": ("%c = bufferization.alloc_tensor() copy(%t) : tensor<4xf32>\n"
                   "  %d = bufferization.alloc_tensor() copy(%t) : tensor<4xf32>\n"
                   "  return %c, %d : tensor<4xf32>, tensor<4xf32>",
                   "%c = memref.alloc() : memref<4xf32>\n  memref.copy %m, %c : memref<4xf32> to memref<4xf32>\n"
                   "  %d = memref.alloc() : memref<4xf32>\n  memref.copy %m, %d : memref<4xf32> to memref<4xf32>\n"
                   "  return %c, %d : memref<4xf32>, memref<4xf32>"),
}


def link_split(text: str, body: str, kind: str) -> str:
    """``text`` with the declaration of ``@split`` given ``body`` (``kind``: tensor or memref)."""
    t = "tensor<4xf32>" if kind == "tensor" else "memref<4xf32>"
    arg = "%t" if kind == "tensor" else "%m"
    decl = re.compile(rf"^\s*func\.func private @split\({re.escape(t)}\) -> \({re.escape(t)}, {re.escape(t)}\)$", re.M)
    assert decl.search(text), text
    return decl.sub(f"func.func private @split({arg}: {t}) -> ({t}, {t}) {{\n  {body}\n}}", text)


#: the values each run prints, computed by hand (each file's comment says what it does)
EXPECTED = {
    # u = a with [0] = 9; b = a with [1] = 9 (no write inside a region reaches a)
    "run_unknown_region_once": "[9, 1, 1, 1] [1, 9, 1, 1]",
    # a[0] = 1 < 2 picks a: w = a with [1] = 9, w2 = w with [0] = 9; then a and w
    "run_unknown_func_diamond": "[9, 9, 1, 1] [1, 1, 1, 1] [1, 9, 1, 1]",
    # count: elements 2, 1, 0 of [2, 2, 2, 2] become 3, then element 0 becomes 3 + 3;
    # ping/pong: elements 1, 0 become 3, then element 0 becomes 5; a is unchanged
    "run_recursive_countdown": "[6, 3, 3, 2] [5, 3, 2, 2] [2, 2, 2, 2]",
    # r#0 with [0] = 9, r#1, a: r#0 and r#1 are a's values (a's, written at [3], for writes_arg)
    "run_external_split": "[9, 1, 1, 1] [1, 1, 1, 1] [1, 1, 1, 1]",
    "run_external_split[writes_arg]": "[9, 1, 1, 5] [1, 1, 1, 5] [1, 1, 1, 1]",
}


def _bufferized(text: str, dealloc: bool, check_output: bool = True) -> str:
    from bufferlog.api import bufferize

    return bufferize(text, options=one_shot(text), dealloc=dealloc, check_output=check_output).text


def _data(r) -> str:
    assert r.returncode == 0, r.stderr[-2000:]
    return " ".join(oracle.print_data(r.stdout).split())


def reference(text: str) -> str:
    """The copy-before-write reference's printed values, with the case's function boundary
    option (mlir-opt-22's copy-before-write rejects branches carrying tensors with function
    boundaries on: 'type mismatch for bb argument'); its deallocation refuses CFG loops, so
    it runs without."""
    if BOUNDARIES in one_shot(text).split():
        # strict: mlir-opt's own analysis, the oracle's fallback, miscompiles some of these
        return _data(oracle.run_semantic(text, dealloc=False, strict=True))
    # boundaries off, mlir-opt leaves the blocks' tensor arguments: a second run with
    # them on bufferizes those (one run of both passes fails as the pass with them on does)
    first = oracle.mlir_opt(text, f"--one-shot-bufferize={one_shot(text)} copy-before-write")
    return _data(oracle.run_program(oracle.mlir_opt(first, f"--one-shot-bufferize={BOUNDARIES} copy-before-write")))


@needs_runner
def test_unknown_region_runs_like_reference():
    """Unknown ops stay on tensors (no deallocation): the output with each region inlined
    prints what the input with each region inlined prints under copy-before-write."""
    text = (HERE / "run_unknown_region_once.mlir").read_text()
    flags = "--allow-unregistered-dialect"
    # without the certificate of the output: it takes the external print function for one
    # that may write the read-only buffer of an unknown op's result it is handed
    ours = inline_regions(oracle.mlir_opt(_bufferized(text, dealloc=False, check_output=False), flags))
    assert '"foo.' not in ours
    got = oracle.run_program(oracle.mlir_opt(ours, "--canonicalize"))
    assert _data(got) == reference(inline_regions(oracle.mlir_opt(text, flags))) == EXPECTED["run_unknown_region_once"]


@needs_runner
@pytest.mark.parametrize("body", sorted(SPLIT_BODIES))
def test_external_call_runs_like_reference(body):
    """Whatever the external function returns (its argument, written or not, or copies),
    the bufferized caller prints what the copy-before-write reference prints."""
    text = (HERE / "run_external_split.mlir").read_text()
    tensor_body, memref_body = SPLIT_BODIES[body]
    # no deallocation: the bodies that return their argument break the ownership contract
    # of a call's results (a caller owns what a call returns), which is not at issue here
    got = oracle.run_program(link_split(_bufferized(text, dealloc=False), memref_body, "memref"))
    want = EXPECTED.get(f"run_external_split[{body}]", EXPECTED["run_external_split"])
    assert _data(got) == reference(link_split(text, tensor_body, "tensor")) == want


@needs_runner
@pytest.mark.parametrize("body", ["arg_twice", "writes_arg"])
def test_external_call_miscompiled_by_mlir_opt(body):
    """The difference of DIFFERS is mlir-opt's miscompile: its own pipeline, with the same
    bodies linked, prints the written value for the other result too."""
    text = (HERE / "run_external_split.mlir").read_text()
    out = link_split(oracle.reference_bufferize(text, dealloc=False), SPLIT_BODIES[body][1], "memref")
    want = EXPECTED.get(f"run_external_split[{body}]", EXPECTED["run_external_split"]).split("] ")
    got = _data(oracle.run_program(out)).split("] ")
    assert got[0] == want[0] and got[1] == got[0] != want[1] and got[2] == want[2]


@needs_runner
@pytest.mark.parametrize("path", [p for p in RUNS if "unknown_region" not in p.stem
                                  and "external" not in p.stem], ids=lambda p: p.stem)
def test_runs_like_reference(path: Path):
    """Bufferized with deallocation, the program prints what the copy-before-write reference
    prints, leak-free (the reference's deallocation refuses CFG loops: it runs without)."""
    text = path.read_text()
    got = oracle.run_program(_bufferized(text, dealloc=True))
    assert _data(got) == reference(text) == EXPECTED[path.stem]
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0)


def test_rules_for_deallocation_leave_the_analysis_alone(tmp_path):
    """A --rules directory with the mem_* facts that teach deallocation an op serves the
    analysis of a tensor program too (it failed: 'relation mem_alloc is not declared');
    a file that fits none of bufferlog's programs is still an error."""
    from bufferlog.api import analyze
    from bufferlog.core import UserError

    text = (HERE / "userop_beside_tensors.mlir").read_text()
    assert analyze(text, rules=REPO / "examples" / "memrules").decisions
    p = subprocess.run([sys.executable, "-m", "bufferlog", "explain", str(HERE / "userop_beside_tensors.mlir"),
                        "--op", "7", "--rules", str(REPO / "examples" / "memrules")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "OUT OF PLACE" in p.stdout, p.stderr
    (tmp_path / "mine.dl").write_text('mem_alloc("test.new_buffer").\nno_such_relation(1).\n')
    with pytest.raises(UserError, match="no_such_relation"):
        analyze(text, rules=tmp_path)


GATHER_MASK = """func.func @f(%t: tensor<16xf32>, %m: memref<4x8xf32>, %idx: vector<4xindex>, %k: vector<4xi1>,
             %p: vector<4xf32>, %i: index) -> (vector<4xf32>, vector<4xf32>, tensor<16xf32>, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 0.0 : f32
  %g = vector.gather %t[%c0] [%idx], %k, %p : tensor<16xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %h = vector.gather %m[%i, %c0][%idx], %k, %p {tag} : memref<4x8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %w = vector.mask %k { vector.transfer_write %p, %t[%c0] : vector<4xf32>, tensor<16xf32> } : vector<4xi1> -> tensor<16xf32>
  vector.mask %k { vector.transfer_write %p, %m[%i, %c0] : vector<4xf32>, memref<4x8xf32> } : vector<4xi1>
  %r = vector.mask %k, %p { vector.transfer_read %t[%i], %x : tensor<16xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  return %g, %h, %w, %r : vector<4xf32>, vector<4xf32>, tensor<16xf32>, vector<4xf32>
}
"""


def test_gather_and_mask_custom_syntax_read_as_mlir_opt_reads_it():
    """vector.gather and vector.mask in custom syntax (the mask's yield implicit): what
    bufferlog prints is the same module as mlir-opt's, op for op in generic form."""
    from bufferlog.frontend.printer import print_module

    out = print_module(parse(GATHER_MASK, "<gather-mask>"))
    generic = [oracle.mlir_opt(t, "--mlir-print-op-generic") for t in (out, GATHER_MASK)]
    assert generic[0] == generic[1]


@pytest.mark.parametrize("bad", [("%t[%c0] [%idx]", "%t[%c0, %c0] [%idx]", "requires 1 indices"),
                                 ("%k, %p { vector.transfer_read", "%k, %x { vector.transfer_read",
                                  "expects different type")])
def test_gather_and_mask_errors_where_mlir_opt_reports_them(bad):
    old, new, words = bad
    text = GATHER_MASK.replace(old, new, 1)
    with pytest.raises(oracle.OracleError) as theirs_err:
        oracle.mlir_opt(text)
    where = re.search(r"<stdin>:(\d+:\d+): error: (.*)", theirs_err.value.stderr)
    with pytest.raises(Exception) as ours_err:
        parse(text, "<stdin>")
    assert words in where.group(2) and f"<stdin>:{where.group(1)}: error: {where.group(2)}" in str(ours_err.value)


#: cases whose output the certificate of the output refuses although it is right (false
#: alarms, exit 2): the external print function is taken to write the read-only buffer
#: of an unknown op's result it is handed
CERTIFICATE_FALSE_ALARMS = {"run_unknown_region_once"}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_bufferized_output_verifies(path: Path, request):
    """bufferize (with deallocation where the program is all bufferized) emits IR that
    mlir-opt-22 accepts, or refuses where mlir-opt's bufferization refuses, with its words."""
    from bufferlog.api import bufferize
    from bufferlog.core import UserError
    from bufferlog.core.errors import InternalError

    if path.stem in CERTIFICATE_FALSE_ALARMS:
        request.applymarker(pytest.mark.xfail(raises=InternalError, strict=True,
                                              reason="certificate of the output: false alarm"))
    text, osb = path.read_text(), one_shot(path.read_text())
    partial = "allow-unknown-ops" in osb or BOUNDARIES not in osb.split()
    if not partial:  # the signatures of the reference pipeline (mlir-opt's default layout,
        # infer-layout-map, fails inside mlir-opt on a returned memory-space-1 buffer)
        osb += " function-boundary-type-conversion=identity-layout-map"
    try:
        theirs_out, refusal = oracle.mlir_opt(text, "--allow-unregistered-dialect",
                                              f"--one-shot-bufferize={osb} allow-return-allocs-from-loops"), None
    except oracle.OracleError as e:
        theirs_out, refusal = None, re.search(r"error: (.*)", e.stderr).group(1)
    if refusal is not None:
        with pytest.raises(UserError, match=re.escape(refusal)):
            bufferize(text, options=osb, rules=rules_of(text), dealloc=not partial)
        return
    assert theirs_out
    out = bufferize(text, options=osb, rules=rules_of(text), dealloc=not partial).text
    oracle.mlir_opt(out, "--allow-unregistered-dialect")  # raises when mlir-opt rejects it
