"""Analysis and bufferization by parts (``--split-ops``, bufferlog/parts.py): the output
must be the whole-module run's, byte for byte, and figure for figure.

The programs: several generated programs (tests/gen_programs.py) in one module, each
one's symbols renamed apart so that each is a part of its own; their dense constants
repeat across programs, so the globals the parts make must be merged and renumbered as
one rewrite of the whole module would number them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/

import oracle  # noqa: E402
from bufferlog.engine.options import OneShotOptions  # noqa: E402
from bufferlog.frontend import split  # noqa: E402
from gen_programs import generate  # noqa: E402

from bufferlog import api
from bufferlog.core import UserError  # noqa: E402

needs_runner = pytest.mark.skipif(not oracle.available(run=True), reason="mlir-opt/mlir-runner missing")


def together(seeds, size: int = 10, main: int = 0, **flags) -> str:
    """The generated programs of ``seeds`` in one module; all but the ``main``-th have
    their symbols suffixed (``@main_1``, ``@printMemrefF32_1``) and made private, so that
    mlir-opt's --symbol-dce leaves the ``main``-th program alone. ``flags``: the
    generator's (forall, cf, dps, views)."""
    out = []
    for k, s in enumerate(seeds):
        text = generate(s, size, **flags)
        if k != main:
            text = re.sub(r"@([A-Za-z_][\w]*)", rf"@\1_{k}", text)
            text = text.replace("func.func @", "func.func private @")
        out.append(text)
    return "\n".join(out)


CONSTANTS = """
func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<7.0> : tensor<4xf32>
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%c, %d : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = call @c(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @c(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<9.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @d(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<9.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.mul ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def bufferized(text: str, split_ops: int, **kw) -> tuple[str, dict]:
    """The output and figures of ``bufferize`` by parts of ``split_ops`` ops (0: whole).
    What is compared here is the parts' output against the whole run's; the certificate
    of the output is left out (it is tested on its own, tests/test_output_certificate.py).
    It rejects gen_5_9: a false alarm on generated seed 7 (size 14), whose output, run
    alone, prints the reference's values with nothing leaked
    (test_certificate_on_the_parts_programs)."""
    kw.setdefault("check_output", False)
    b = api.bufferize(api.parse(text, "t.mlir"), split_ops=split_ops, **kw)
    return b.print(), {**api.figures_row(b.analysis, b), **vars(b.plan)}


def analysed(text: str, split_ops: int, **kw) -> tuple[str, dict]:
    a = api.analyze(api.parse(text, "t.mlir"), split_ops=split_ops, **kw)
    return a.annotated(), a.to_json()


def conflicts_renumbered(text: str) -> tuple[str, list]:
    """The text with conflict tags taken out, and each conflict as the places of its
    tags (by parts they are numbered part after part, as a whole by the decision order;
    the number also decides where a tag sorts among an op's attributes)."""
    tag = re.compile(r'"([CW])_(\d+)\[([^\]]*)\]"(, )?')
    where: dict[str, list] = {}
    lines = []
    for n, line in enumerate(text.splitlines()):
        for m in tag.finditer(line):
            where.setdefault(m.group(1) + m.group(2), []).append((n, m.group(3)))
        lines.append(tag.sub("", line))
    return "\n".join(lines), sorted(where.values())


#: functions without tensors: left out of their part when nothing there names them;
#: @buffers holds memrefs (its frees are the rewrite's business), @scalar_called is called
#: by a tensor function
NO_TENSORS = """
func.func private @scalar(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}
func.func private @scalar_called(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func @uses(%t: tensor<4xf32>, %x: f32, %i: index) -> tensor<4xf32> {
  %y = call @scalar_called(%x) : (f32) -> f32
  %r = tensor.insert %y into %t[%i] : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @buffers(%i: index) -> f32 {
  %m = memref.alloc() : memref<4xf32>
  %f = arith.constant 1.0 : f32
  memref.store %f, %m[%i] : memref<4xf32>
  %v = memref.load %m[%i] : memref<4xf32>
  return %v : f32
}
func.func private @declared(f32) -> f32
""" + CONSTANTS


def tiny_funcs() -> str:
    from benchmarks import gen_stress

    return gen_stress.tiny_funcs_mb(0.01)  # @main calls half the functions


PROGRAMS = {"constants": CONSTANTS, "no_tensors": NO_TENSORS, "tiny_funcs": tiny_funcs(),
            "gen_0_4": together(range(5)),
            "gen_5_9": together(range(5, 10), 14), "gen_10_13": together(range(10, 14), 20),
            "gen_forall_cf": together(range(20, 24), 14, forall=True, cf=True),
            "gen_dps_views": together(range(30, 34), 14, dps=True, views=True)}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("packed", [False, True])
def test_bufferize_by_parts_is_the_whole_run(name, packed):
    """Each component a part, or components packed into parts of half the module."""
    text = PROGRAMS[name]
    m = api.parse(text, "t.mlir")
    split_ops = sum(1 for _ in m.walk()) // 2 if packed else 1
    assert len(split.parts(m, split_ops)) >= 2, "the test needs several parts"
    whole = bufferized(text, 0)
    assert bufferized(text, split_ops) == whole
    for kw in ({"dealloc": False}, {"layout": "infer-layout-map"}):
        assert bufferized(text, split_ops, **kw) == bufferized(text, 0, **kw), kw


OUTPUT_FIGURES = set(api.OutputFigures._fields)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_optimal_by_parts_costs_what_the_whole_run_costs(name):
    """The fewest copied bytes of a module is the sum of its parts' (no copy is shared
    between parts), but Z3 may break a tie between equal-cost choices another way: the
    analysis figures may differ (gen_10_13: a slice of a constant or the op writing into
    it), the copies made may not."""
    (text_1, fig_1), (text_0, fig_0) = (bufferized(PROGRAMS[name], n, strategy="optimal")
                                        for n in (1, 0))
    assert text_1 == text_0
    assert {k: v for k, v in fig_1.items() if k in OUTPUT_FIGURES} == {
        k: v for k, v in fig_0.items() if k in OUTPUT_FIGURES}


def test_constants_merged_and_renumbered():
    out, _ = bufferized(CONSTANTS, 1)
    names = re.findall(r"memref.global \"private\" constant @(\w+)", out)
    assert names == ["__constant_0", "__constant_1", "__constant_2"]  # [1,2,3,4] once
    # @b's rewrite comes after its callee @c's: 9.0 is met before 7.0
    assert "@__constant_1 : memref<4xf32> = dense<9.0>" in out
    assert "@__constant_2 : memref<4xf32> = dense<7.0>" in out


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_analyze_by_parts_is_the_whole_run(name):
    text = PROGRAMS[name]
    whole_text, whole_json = analysed(text, 0)
    text_1, json_1 = analysed(text, 1)
    assert json_1 == whole_json
    assert conflicts_renumbered(text_1) == conflicts_renumbered(whole_text)
    dump = OneShotOptions(dump_alias_sets=True)  # bufferlog's defaults, alias sets printed
    (text_1, json_1), (text_0, json_0) = (analysed(text, n, options=dump) for n in (1, 0))
    assert json_1 == json_0
    assert conflicts_renumbered(text_1) == conflicts_renumbered(text_0)


def test_functions_without_tensors_are_left_out(monkeypatch):
    """What each part's analysis holds: not @scalar nor @declared (no tensor, named by
    nothing), in the analysis not @buffers (no tensor), in the rewrite @buffers (memrefs);
    always @scalar_called (@uses calls it)."""
    seen = []
    real = api.analyze

    def spy(source, **kw):
        seen.extend(op.attrs["sym_name"].value for op in source.body.ops if op.name == "func.func")
        return real(source, **kw)

    monkeypatch.setattr(api, "analyze", spy)
    real(api.parse(NO_TENSORS, "t.mlir"), split_ops=1)
    assert not {"scalar", "declared", "buffers"} & set(seen)
    assert {"scalar_called", "uses", "a", "b", "c", "d"} <= set(seen)
    seen.clear()
    api.bufferize(api.parse(NO_TENSORS, "t.mlir"), split_ops=1)
    assert not {"scalar", "declared"} & set(seen)
    assert {"buffers", "scalar_called", "uses"} <= set(seen)


def test_a_module_within_the_limit_is_not_split():
    m = api.parse(PROGRAMS["gen_0_4"], "t.mlir")
    n = sum(1 for _ in m.walk()) - 1
    assert split.parts(m, n) is None
    assert len(split.parts(m, n - 1)) >= 2


def test_components_follow_symbol_references():
    text = """
memref.global "private" @g : memref<4xf32> = dense<0.0>
func.func private @decl(tensor<4xf32>)
func.func @uses_g() -> f32 {
  %m = memref.get_global @g : memref<4xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32>
  return %v : f32
}
func.func @alone(%t: tensor<4xf32>) -> tensor<4xf32> {
  return %t : tensor<4xf32>
}
func.func @calls_decl(%t: tensor<4xf32>) {
  call @decl(%t) : (tensor<4xf32>) -> ()
  return
}
"""
    comps, sizes = split.components(api.parse(text, "t.mlir"))
    assert comps == [[0, 2], [1, 4], [3]]
    assert sizes[2] == 5  # the function and its four ops


def test_an_opaque_attribute_naming_a_symbol_stops_the_split():
    text = """
func.func @f() attributes {x = #my.attr<@g>} {
  return
}
func.func @g() {
  return
}
"""
    assert split.components(api.parse(text, "t.mlir")) is None
    assert split.parts(api.parse(text, "t.mlir"), 1) is None


def test_an_error_in_a_later_part_is_the_whole_runs_error():
    text = PROGRAMS["constants"] + """
func.func @bad(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = "my.unknown"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    with pytest.raises(UserError) as whole:
        api.bufferize(api.parse(text, "t.mlir"), split_ops=0)
    with pytest.raises(UserError) as parts:
        api.bufferize(api.parse(text, "t.mlir"), split_ops=1)
    assert (parts.value.message, parts.value.loc) == (whole.value.message, whole.value.loc)


def test_an_analysis_by_parts_is_not_reused():
    m = api.parse(PROGRAMS["constants"], "t.mlir")
    a = api.analyze(m, split_ops=1)
    with pytest.raises(UserError, match="by parts"):
        api.bufferize(m, analysis=a)
    with pytest.raises(UserError, match="by parts"):
        api.explain(a, 3)


def test_cli_split_ops(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text(PROGRAMS["gen_0_4"])
    cmd = [sys.executable, "-m", "bufferlog"]
    outs = [subprocess.run([*cmd, "bufferize", str(src), "--stats", "--split-ops", n],
                           capture_output=True, text=True) for n in ("0", "1")]
    assert outs[0].returncode == 0, outs[0].stderr
    assert (outs[1].stdout, outs[1].stderr) == (outs[0].stdout, outs[0].stderr)
    bad = subprocess.run([*cmd, "analyze", str(src), "--split-ops", "-3"], capture_output=True, text=True)
    assert bad.returncode != 0 and "--split-ops" in bad.stderr and "Traceback" not in bad.stderr
    js = [json.loads(subprocess.run([*cmd, "analyze", str(src), "--format", "json", "--split-ops", n],
                                    capture_output=True, text=True).stdout) for n in ("0", "1")]
    assert js[0] == js[1]


@needs_runner
def test_by_parts_output_verifies_and_runs():
    """@main is the last of five programs, each a part: its constants' globals are
    renumbered and shared with the other parts'; it must print what it prints alone."""
    text = together(range(5), main=4)
    out, _ = bufferized(text, 1)
    assert out == bufferized(text, 0)[0]
    main = out.split("func.func @main(")[1]
    assert int(max(re.findall(r"get_global @__constant_(\d+)", main), key=int)) >= 2  # renumbered
    proc = subprocess.run([oracle.MLIR_OPT], input=out, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    got = oracle.run_program(oracle.mlir_opt(out, "--symbol-dce"), count=True)
    ref = oracle.run_semantic(generate(4, 10))
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.clean, (got.allocs, got.frees, got.live, got.double_frees, got.bad_frees)
    assert oracle.print_data(got.stdout) == oracle.print_data(ref.stdout)


def test_batch_row_by_parts_is_the_whole_row(tmp_path, monkeypatch):
    from bufferlog.app import batch

    src = tmp_path / "m.mlir"
    src.write_text(PROGRAMS["gen_0_4"])
    timing = {"analysis_s"}
    rows = []
    for n in (0, 1):
        monkeypatch.setattr(api, "SPLIT_OPS", n)
        row = batch.analyze_file(str(src), batch.BatchOptions())
        assert row["status"] == "ok", row
        rows.append({k: v for k, v in row.items() if k not in timing})
    assert rows[1] == rows[0]
    assert rows[0]["_explain"] and rows[0]["copies"]


def test_batch_row_by_parts_with_a_backend_error(tmp_path, monkeypatch):
    """A bufferize error in a later part: the row is partial with the whole analysis's
    figures, as without parts."""
    from bufferlog.app import batch

    src = tmp_path / "m.mlir"
    src.write_text(PROGRAMS["constants"] + """
func.func @late(%x: f32) -> tensor<4xf32> {
  %g = "foo.make"(%x) : (f32) -> tensor<4xf32>
  return %g : tensor<4xf32>
}
""")
    rows = []
    for n in (0, 1):
        monkeypatch.setattr(api, "SPLIT_OPS", n)
        row = batch.analyze_file(str(src), batch.BatchOptions())
        rows.append({k: v for k, v in row.items() if k != "analysis_s"})
    assert rows[1] == rows[0]
    assert rows[0]["status"] == "partial" and rows[0]["bufferize_error"], rows[0]


@pytest.mark.oracle
@pytest.mark.parametrize("seed,size,refused", [(7, 14, True), (11, 20, False)])
def test_certificate_on_the_parts_programs(seed, size, refused):
    """The generated programs behind the certificate's rejections of gen_5_9 and
    gen_10_13. Seed 7 (size 14) is still refused although its output is right (the
    output, bufferized without the certificate, prints the reference's values and frees
    everything once); seed 11 (size 20) was too, until the certificate followed a copy's
    target rewritten in part. Strict both ways: when either verdict changes, this test
    says so."""
    from bufferlog.backend.certify_output import OutputCertificateError

    text = generate(seed, size)
    if refused:
        with pytest.raises(OutputCertificateError):
            api.bufferize(api.parse(text, "t.mlir"))
    else:
        api.bufferize(api.parse(text, "t.mlir"))  # the certificate passes it
    got = oracle.run_program(api.bufferize(api.parse(text, "t.mlir"), check_output=False).text)
    assert got.clean and got.data == oracle.run_semantic(text).data
