"""mlir-opt's One-Shot options, under its names (issue 10): the analysis heuristics and
function boundaries off give mlir-opt-22's decisions; copy-before-write runs correctly;
dump-alias-sets names each result's alias set; a verbatim option string is read; an option
bufferlog does not implement is a clear error (exit 1)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.engine.options import OneShotOptions, parse_pass_options
from bufferlog.frontend.parser import parse

from bufferlog.core import UserError

try:
    from tests import gen_programs, oracle
    from tests.sweep import bufferize_text
except ImportError:  # tests/ on sys.path
    import gen_programs
    import oracle
    from sweep import bufferize_text

HERE = Path(__file__).parent / "options"
HEURISTICS = ("bottom-up", "top-down", "bottom-up-from-terminators")
needs_tools = pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22/mlir-runner-22 missing")


def ours(text: str, options: OneShotOptions) -> list:
    _, an, dec = analyze_module(parse(text, "<t>"), engine="embedded", options=options)
    return [(an.name[o], v) for o, v in operand_annotations(an, dec).items()]


def reference(text: str, osb: str) -> list:
    return oracle.inplace_decisions(oracle.mlir_opt(
        text, f"--one-shot-bufferize=test-analysis-only print-conflicts {osb}"))


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("heuristic", HEURISTICS)
@pytest.mark.parametrize("name", ["two_fills", "if_and_copy"])
def test_heuristic_parity(name, heuristic):
    text = (HERE / f"{name}.mlir").read_text()
    osb = f"bufferize-function-boundaries analysis-heuristic={heuristic}"
    assert ours(text, parse_pass_options(osb)) == reference(text, osb)


@needs_tools
@pytest.mark.oracle
def test_heuristics_decide_differently():
    """The order matters: the two fills keep a different one in place (the test above
    could not pass with one order for all heuristics)."""
    text = (HERE / "two_fills.mlir").read_text()
    got = {h: ours(text, OneShotOptions(analysis_heuristic=h)) for h in HEURISTICS}
    assert got["bottom-up"] != got["top-down"]


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("heuristic", ["bottom-up", "bottom-up-from-terminators"])
@pytest.mark.parametrize("seed", range(6))
def test_heuristic_parity_generated(seed, heuristic):
    text = gen_programs.generate(seed, 12, dps=True)
    osb = f"bufferize-function-boundaries allow-return-allocs-from-loops analysis-heuristic={heuristic}"
    assert ours(text, parse_pass_options(osb)) == reference(text, osb)


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("name", ["no_boundaries", "no_boundaries_call"])
def test_function_boundaries_off_parity(name):
    """mlir-opt's default: arguments are read-only, calls and returns are unknown ops."""
    text = (HERE / f"{name}.mlir").read_text()
    got = ours(text, OneShotOptions(bufferize_function_boundaries=False))
    assert got == reference(text, "")
    assert got != ours(text, OneShotOptions())


@needs_tools
@pytest.mark.oracle
@pytest.mark.parametrize("path", [Path(__file__).parent / "miscompiles" / "two_inserts_one_tensor.mlir",
                                  Path(__file__).parent / "miscompiles" / "loop_reads_fill_of_written_empty.mlir"],
                         ids=lambda p: p.stem)
def test_copy_before_write_runs(path):
    text = path.read_text()
    ref = oracle.run_semantic(text)
    from bufferlog.backend.bufferize import bufferize
    from bufferlog.frontend.printer import print_module

    m = parse(text, "t.mlir")
    facts_an_dec = analyze_module(m, engine="embedded", options=OneShotOptions(copy_before_write=True))
    _, _, dec = facts_an_dec
    assert all(not dec.inplace[u] for u in dec.order if u in facts_an_dec[1].writes)
    got = oracle.run_program(print_module(bufferize(m, analysis=facts_an_dec)))
    assert got.data == ref.data and got.clean
    assert got.data == oracle.run_program(bufferize_text(text, "oneshot")).data


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bufferlog", *args], capture_output=True,
                          text=True, cwd=oracle.REPO)


def test_dump_alias_sets():
    p = cli("analyze", str(HERE / "alias_sets.mlir"), "--engine", "embedded", "--dump-alias-sets")
    assert p.returncode == 0, p.stderr
    sets = re.findall(r'__opresult_alias_set_attr__ = \[\[([^\]]*)\]\]', p.stdout)
    # the insert writes %t in place and both branches yield into %r: one set
    assert sets and all(sorted(s.split(", ")) == ['"%a"', '"%r"', '"%t"'] for s in sets)
    assert '__bbarg_alias_set_attr__ = [[[["%t", "%r", "%a"]]]]' in p.stdout


def test_verbatim_option_string_and_flags():
    path = str(HERE / "two_fills.mlir")
    a = cli("analyze", path, "--engine", "embedded", "--one-shot-bufferize="
            "bufferize-function-boundaries analysis-heuristic=top-down print-conflicts")
    b = cli("analyze", path, "--engine", "embedded", "--analysis-heuristic", "top-down")
    c = cli("analyze", path, "--engine", "embedded")
    # one dash, as in a lit RUN line, and the flag overriding the string
    d = cli("analyze", path, "--engine", "embedded", "-one-shot-bufferize="
            "bufferize-function-boundaries print-conflicts", "--analysis-heuristic=top-down")
    assert a.returncode == 0 and a.stdout == b.stdout == d.stdout != c.stdout


@pytest.mark.parametrize("opts, message", [
    ("buffer-alignment=64", "option 'buffer-alignment' is not supported by bufferlog"),
    ("no-such-option", "unknown option 'no-such-option'"),
    ("analysis-heuristic=fuzzer", "analysis-heuristic: 'fuzzer' is not one of"),
    ("bufferize-function-boundaries=yes", "takes true/false or 1/0, not 'yes'"),
    ("print-conflicts", "option 'print-conflicts' requires 'test-analysis-only'"),
])
def test_unsupported_options_are_errors(opts, message):
    with pytest.raises(UserError, match=re.escape(message)):
        parse_pass_options(opts)
    p = cli("bufferize", str(HERE / "two_fills.mlir"), f"--one-shot-bufferize={opts}")
    assert p.returncode == 1 and message in p.stderr, p.stderr


@pytest.mark.parametrize("opts", ["buffer-alignment=0", "analysis-fuzzer-seed=0",
                                  "check-parallel-regions", "check-parallel-regions=1"])
def test_options_at_mlir_opts_default_are_accepted(opts):
    """An option bufferlog does not implement, written at mlir-opt's default value, is
    what bufferlog does anyway: accepted."""
    assert parse_pass_options(opts) == parse_pass_options("")
