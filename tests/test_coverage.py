"""Issue 10's backend coverage, against mlir-opt-22 on programs of tests/coverage/.

Each executable program (a ``@main`` printing through ``to_buffer read_only`` +
``memref.cast`` + ``printMemrefF32``) has the in-place decisions of mlir-opt's analysis and,
bufferized by us under both strategies with deallocation, prints what mlir-opt's
copy-before-write pipeline prints (the semantic reference), leak-free. Unavoidable
conflicts are located errors with mlir-opt's wording. Unknown ops (``allow-unknown-ops``)
and function boundaries off are compared with mlir-opt's own output op by op.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

try:
    from tests import oracle
    from tests.sweep import bufferize_text
except ImportError:  # tests/ on sys.path
    import oracle
    from sweep import bufferize_text

from bufferlog.backend.bufferize import bufferize
from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.engine.options import OneShotOptions
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module

HERE = Path(__file__).parent / "coverage"
OPTIONS = Path(__file__).parent / "options"
EXECUTABLE = ["to_buffer_cast", "select", "execute_region", "materialize_arg", "concat_dynamic",
              "recursive_self", "recursive_mutual", "splat_rank", "index_switch"]
UNKNOWN = ["unknown_op", "unknown_region", "unknown_nested", "unknown_dynamic", "bitcast_unknown"]
UNKNOWN_OSB = ("allow-unknown-ops bufferize-function-boundaries allow-return-allocs-from-loops "
               "function-boundary-type-conversion=identity-layout-map")
#: what the unknown-op and boundary comparisons count: the ops that show where tensors
#: cross into buffers and where buffers are copied
COUNTED = ("bufferization.to_tensor", "bufferization.to_buffer", "memref.alloc", "memref.copy",
           "memref.load", "memref.store", "func.call")

needs_tools = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")
pytestmark = [needs_tools, pytest.mark.oracle]


def text_of(name: str, where: Path = HERE) -> str:
    return (where / f"{name}.mlir").read_text()


def our_decisions(text: str, options: OneShotOptions | None = None) -> list:
    """Our decisions in source order (mlir-opt's printing order: scf.index_switch prints
    its cases before its default region, which comes first in the op)."""
    _, an, dec = analyze_module(parse(text, "t.mlir"), engine="embedded", options=options)
    ann = operand_annotations(an, dec)
    return [(an.name[o], ann[o]) for o in sorted(ann, key=lambda o: an.loc[o][1:])]


def mlir_decisions(text: str, osb: str) -> list:
    return oracle.inplace_decisions(oracle.mlir_opt(
        text, "--allow-unregistered-dialect", f"--one-shot-bufferize={osb} test-analysis-only"))


def ours_bufferized(text: str, options: OneShotOptions, dealloc: bool = False) -> str:
    return print_module(bufferize(parse(text, "t.mlir"), "oneshot", dealloc, engine="embedded",
                                  options=options))


def counted(text: str) -> Counter:
    """The COUNTED ops and unknown ops of ``text``; ``to_buffer`` once per tensor (mlir-opt
    makes one per use of a tensor left on tensors, bufferlog one per tensor)."""
    m = parse(oracle.mlir_opt(text, "--allow-unregistered-dialect"), "<out>")
    ops = [op for op in m.walk() if op.name in COUNTED or op.name.startswith("foo.")
           or op.name == "tensor.bitcast"]
    n = Counter(op.name for op in ops if op.name != "bufferization.to_buffer")
    n["bufferization.to_buffer"] = len({op.operands[0] for op in ops
                                        if op.name == "bufferization.to_buffer"})
    return n


def signatures(text: str) -> dict[str, str]:
    m = parse(oracle.mlir_opt(text, "--allow-unregistered-dialect"), "<out>")
    return {op.attrs["sym_name"].value: str(op.attrs["function_type"].type)
            for op in m.walk() if op.name == "func.func"}


def to_buffer_types(text: str) -> list[str]:
    """The memref types ``to_buffer`` ops of ``text`` produce."""
    m = parse(oracle.mlir_opt(text, "--allow-unregistered-dialect"), "<out>")
    return sorted({str(op.results[0].type) for op in m.walk() if op.name == "bufferization.to_buffer"})


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bufferlog", *args], capture_output=True,
                          text=True, cwd=oracle.REPO)


# -- ops that bufferize in mlir-opt: decisions and execution --------------------------------

@pytest.mark.parametrize("name", [*EXECUTABLE, "access_read_decl"])
def test_decisions_match_mlir_opt(name):
    text = text_of(name)
    assert our_decisions(text) == oracle.inplace_decisions(oracle.reference_analysis(text))


@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
@pytest.mark.parametrize("name", EXECUTABLE)
def test_executes_like_semantic_reference(name, strategy):
    text = text_of(name)
    ref = oracle.run_semantic(text)
    assert ref.returncode == 0 and ref.data.strip(), ref.stderr[-2000:]
    got = oracle.run_program(bufferize_text(text, strategy))
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.data == ref.data
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0)


@pytest.mark.parametrize("name", ["recursive_self", "recursive_mutual"])
def test_recursive_signatures_like_mlir_opt(name):
    """Recursive functions keep every result (none is dropped as a returned argument),
    with mlir-opt's identity-layout signatures."""
    text = text_of(name)
    assert (signatures(ours_bufferized(text, OneShotOptions()))
            == signatures(oracle.reference_bufferize(text, dealloc=False)))


def test_to_buffer_read_only_stays_in_place():
    """A read-only to_buffer of the loop's iter_arg is a read: the insert after it in the
    loop still writes in place (no copy in the loop body), as in mlir-opt."""
    text = text_of("to_buffer_cast")
    decisions = dict(enumerate(our_decisions(text)))
    to_buffers = [v for n, v in decisions.values() if n == "bufferization.to_buffer"]
    assert to_buffers[:2] == [["true"], ["true"]]
    inserts = [v for n, v in decisions.values() if n == "tensor.insert"]
    assert inserts == [["none", "true", "none"]]


@pytest.mark.parametrize("strategy", ["oneshot", "optimal"])
def test_to_buffer_written_through_copies(strategy):
    """A to_buffer without read_only is a write (mlir-opt puts it out of place when the
    tensor is read later): the store through it leaves the tensor alone. Compared with
    mlir-opt's own pipeline: its copy-before-write mode does not copy for to_buffer, so it
    is no reference here."""
    text = text_of("to_buffer_write")
    assert our_decisions(text) == oracle.inplace_decisions(oracle.reference_analysis(text))
    ref = oracle.run_program(oracle.reference_bufferize(text))
    got = oracle.run_program(bufferize_text(text, strategy))
    assert got.returncode == 0 and got.data == ref.data
    assert " ".join(got.data.split()) == "[5, 1, 1, 1] [1, 1, 1, 1]"
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0)


@pytest.mark.parametrize("name, message", [
    ("materialize_conflict", "'bufferization.materialize_in_destination' op not bufferizable "
                             "under the given constraints: cannot avoid RaW conflict"),
    ("materialize_readonly", "'bufferization.materialize_in_destination' op not bufferizable "
                             "under the given constraints: would write to read-only buffer"),
])
def test_unavoidable_conflict_is_located_error(name, message):
    path = HERE / f"{name}.mlir"
    with pytest.raises(oracle.OracleError) as ref:
        oracle.mlir_opt(path, "--one-shot-bufferize=bufferize-function-boundaries")
    line = next(i for i, s in enumerate(path.read_text().splitlines(), 1)
                if "materialize_in_destination %" in s)
    assert f"{path}:{line}:" in ref.value.stderr and message in ref.value.stderr
    for command in ("bufferize", "analyze"):
        p = cli(command, str(path), "--engine", "embedded")
        assert (p.returncode, p.stdout) == (1, ""), p.stderr
        assert p.stderr.startswith(f"{path}:{line}:") and message in p.stderr, p.stderr
        assert "Traceback" not in p.stderr


# -- allow-unknown-ops ---------------------------------------------------------------------

@pytest.mark.parametrize("name", UNKNOWN)
def test_unknown_ops_decisions_match_mlir_opt(name):
    """Region arguments of unknown ops are not writable, their results neither."""
    text = text_of(name)
    assert our_decisions(text, OneShotOptions(allow_unknown_ops=True)) == mlir_decisions(text, UNKNOWN_OSB)


def test_unknown_op_result_yielded_by_loop_is_not_written():
    """Intentional difference: mlir-opt writes the next iteration's iter_arg in place when
    the loop yields an unknown op's result (whose buffer may be read-only, like a yielded
    constant's: DESIGN.md §5); bufferlog copies there, and agrees everywhere else."""
    text = text_of("unknown_loop_yield")
    ours, ref = our_decisions(text, OneShotOptions(allow_unknown_ops=True)), mlir_decisions(text, UNKNOWN_OSB)
    differ = [(a, b) for a, b in zip(ours, ref, strict=True) if a != b]
    assert differ == [(("tensor.insert", ["none", "false", "none"]),
                       ("tensor.insert", ["none", "true", "none"]))]


def test_unknown_ops_via_cli_option_and_option_string():
    path = str(HERE / "unknown_region.mlir")
    a = cli("analyze", path, "--engine", "embedded", "--allow-unknown-ops")
    b = cli("analyze", path, "--engine", "embedded",
            "--one-shot-bufferize=bufferize-function-boundaries allow-unknown-ops print-conflicts")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert oracle.inplace_decisions(a.stdout) == mlir_decisions(text_of("unknown_region"), UNKNOWN_OSB)


@pytest.mark.parametrize("layout", ["fully-dynamic-layout-map", "identity-layout-map"])
@pytest.mark.parametrize("name", UNKNOWN)
def test_unknown_ops_bufferize_like_mlir_opt(name, layout):
    """Same to_tensor / to_buffer (with unknown-type-conversion's layout), allocations,
    copies and accesses as mlir-opt; mlir-opt accepts the output."""
    text = text_of(name)
    got = ours_bufferized(text, OneShotOptions(allow_unknown_ops=True, unknown_type_conversion=layout))
    ref = oracle.mlir_opt(text, "--allow-unregistered-dialect",
                          f"--one-shot-bufferize={UNKNOWN_OSB} unknown-type-conversion={layout}")
    assert counted(got) == counted(ref)
    assert to_buffer_types(got) == to_buffer_types(ref)


@pytest.mark.parametrize("name", UNKNOWN)
def test_unknown_op_without_option_is_located_error(name):
    path = HERE / f"{name}.mlir"
    with pytest.raises(oracle.OracleError) as ref:
        oracle.mlir_opt(path, "--allow-unregistered-dialect",
                        "--one-shot-bufferize=bufferize-function-boundaries")
    assert "op was not bufferized" in ref.value.stderr
    p = cli("bufferize", str(path), "--engine", "embedded")
    assert (p.returncode, p.stdout) == (1, ""), p.stderr
    first = ref.value.stderr.split(": error:")[0]  # file:line:col of mlir-opt's error
    assert p.stderr.startswith(first.rsplit(":", 1)[0] + ":"), (p.stderr, first)
    assert "op was not bufferized" in p.stderr
    assert any(f"'{n}' op" in p.stderr for n in ("foo.foo", "foo.wrap", "foo.step", "foo.op", "tensor.bitcast"))


def test_dealloc_of_ops_left_on_tensors_is_an_error():
    """mlir-opt's deallocation rejects unknown ops ("unknown memory side effects"); so does
    ours, naming the op, and --no-dealloc gives the bufferized IR."""
    path = str(HERE / "unknown_op.mlir")
    p = cli("bufferize", path, "--engine", "embedded", "--allow-unknown-ops")
    assert (p.returncode, p.stdout) == (1, "")
    assert "'foo.foo' op stays on tensors" in p.stderr and "--no-dealloc" in p.stderr
    p = cli("bufferize", path, "--engine", "embedded", "--allow-unknown-ops", "--no-dealloc")
    assert p.returncode == 0 and '"foo.foo"' in p.stdout


# -- bufferize-function-boundaries off (mlir-opt's default) ---------------------------------

BOUNDARIES_OFF = [(OPTIONS, "no_boundaries"), (OPTIONS, "no_boundaries_call"), (HERE, "select"),
                  (HERE, "recursive_mutual"), (HERE, "no_boundaries_mixed"), (HERE, "no_boundaries_main")]


@pytest.mark.parametrize("layout", ["fully-dynamic-layout-map", "identity-layout-map"])
@pytest.mark.parametrize("where, name", BOUNDARIES_OFF, ids=[n for _, n in BOUNDARIES_OFF])
def test_boundaries_off_like_mlir_opt(where, name, layout):
    """Signatures stay on tensors, arguments get to_buffer at entry (layout:
    unknown-type-conversion), returned values to_tensor, calls stay on tensors: same ops,
    types and signatures as mlir-opt's default, and mlir-opt accepts our output."""
    text = text_of(name, where)
    off = OneShotOptions(bufferize_function_boundaries=False, unknown_type_conversion=layout)
    got = ours_bufferized(text, off)
    ref = oracle.mlir_opt(text, f"--one-shot-bufferize=unknown-type-conversion={layout}")
    assert signatures(got) == signatures(ref) == signatures(text)
    assert counted(got) == counted(ref)
    assert to_buffer_types(got) == to_buffer_types(ref)
    assert our_decisions(text, off) == oracle.inplace_decisions(
        oracle.mlir_opt(text, "--one-shot-bufferize=test-analysis-only"))


@pytest.mark.parametrize("name", ["no_boundaries_main", "concat_dynamic"])
def test_boundaries_off_executes(name):
    """A program without tensor signatures or calls runs the same with boundaries off."""
    text = text_of(name)
    got = oracle.run_program(print_module(bufferize(
        parse(text, "t.mlir"), "oneshot", True, engine="embedded",
        options=OneShotOptions(bufferize_function_boundaries=False))))
    ref = oracle.run_semantic(text)
    assert got.returncode == 0 and got.data == ref.data
    assert (got.live, got.double_frees, got.bad_frees) == (0, 0, 0)


def test_boundaries_off_cli():
    """The flag and the verbatim option string agree; deallocation of the tensor
    signatures left by it is refused with a located error, not done wrongly."""
    path = str(HERE / "no_boundaries_mixed.mlir")
    a = cli("bufferize", path, "--engine", "embedded", "--no-dealloc", "--no-bufferize-function-boundaries")
    b = cli("bufferize", path, "--engine", "embedded", "--no-dealloc",
            "--one-shot-bufferize=bufferize-function-boundaries=false "
            "function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops")
    assert a.returncode == 0 and a.stdout == b.stdout
    assert counted(a.stdout) == counted(oracle.mlir_opt(path, "--one-shot-bufferize"))
    p = cli("bufferize", path, "--engine", "embedded", "--no-bufferize-function-boundaries")
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr.startswith(f"{path}:5:3: error: 'func.return' op stays on tensors"), p.stderr


def test_boundaries_off_dealloc_stays_refused():
    """Why `bufferize --no-bufferize-function-boundaries` refuses deallocation while
    tensors are left: mlir-opt-22's --buffer-deallocation-pipeline on that IR frees the
    buffer behind a returned `to_tensor` before the return (the caller would read freed
    memory), so it is no reference to follow, and its output does not lower to run."""
    text = text_of("no_boundaries_mixed")
    out = parse(oracle.mlir_opt(text, "--one-shot-bufferize", "--buffer-deallocation-pipeline"), "<out>")
    step = next(op for op in out.walk() if op.name == "func.func" and op.attrs["sym_name"].value == "step")
    ops = list(step.walk())
    to_tensor = next(op for op in ops if op.name == "bufferization.to_tensor")
    freed = [op.operands[0] for op in ops if op.name == "memref.dealloc"]
    ret = next(op for op in ops if op.name == "func.return")
    assert to_tensor.operands[0] in freed and ret.operands[0] is to_tensor.results[0]
    with pytest.raises(oracle.OracleError, match="bufferization.to_buffer"):
        oracle.mlir_opt(oracle.mlir_opt(text, "--one-shot-bufferize", "--buffer-deallocation-pipeline"),
                        *oracle.LOWERING_PASSES)
