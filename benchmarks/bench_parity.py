"""Analysis parity: bufferlog's in-place decisions vs mlir-opt-22's One-Shot analysis,
over every analysis case the tests have, in total.

``python -m benchmarks.bench_parity [--suite NAME ...]``

Each case is analysed by ``bufferlog analyze`` (strategy oneshot, embedded engine) and by
``mlir-opt-22 --one-shot-bufferize="bufferize-function-boundaries test-analysis-only"``
(plus the case's own options); the ``__inplace_operands_attr__`` of every op are compared
per op, in source order (``tests/oracle.py inplace_decisions``). An *operand* is one
tensor operand's decision (``"true"`` / ``"false"``; ``"none"`` entries are not counted);
an *input* is identical when every op's decisions are. Where mlir-opt rejects a case, so
must bufferlog (both rejecting counts as identical, with no operands).

Suites: the shared corpus, ``tests/test_analysis_parity.py``'s hand-written and generated
programs (plain, with scf.forall / cf, gen_chain), ``tests/parity/`` (small cases in the
style of MLIR's One-Shot analysis tests), ``tests/coverage/``, ``tests/parity_classes/``
(one or more cases of each kind of input where bufferlog once differed: user-described
ops, affine syntax, index_cast / gather, memory spaces, loops passing their own value,
unknown ops' regions, function boundaries off, external and recursive calls; each
file's options on its ``// one-shot:`` line), ``tests/options/`` (the
heuristics, function boundaries off), ``tests/vector/`` and the generated vector
programs, and the programs of mlir-opt 22's known miscompiles. Every differing case
must have a documented reason (``DOCUMENTED``, each a row or paragraph of
docs/analysis.md); an undocumented difference makes the run exit 1. Writes
benchmarks/results/parity.json.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bufferlog.engine.oneshot import analyze_module, operand_annotations
from bufferlog.engine.options import parse_pass_options
from bufferlog.frontend.parser import parse

from benchmarks import SHARED
from benchmarks.measure import save
from bufferlog.core import UserError
from tests import gen_programs, gen_vector_programs, oracle
from tests import test_analysis_parity as parity

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"
BOUNDARIES = "bufferize-function-boundaries"
UNKNOWN = (f"{BOUNDARIES} allow-unknown-ops allow-return-allocs-from-loops "
           "function-boundary-type-conversion=identity-layout-map")
HEURISTICS = ("bottom-up", "top-down", "bottom-up-from-terminators")
#: suites written to show mlir-opt 22's miscompiles: every input differs on purpose
EXHIBITS = ("known", "miscompiles", "vector_differs")

#: differing case -> its documented reason (docs/analysis.md, "Intentional difference"
#: table and the paragraphs under it; tests/test_analysis_parity.py CFG_CONSERVATIVE)
_CFG = ("CFG_CONSERVATIVE: a write in a later block into a value defined by a dominating "
        "block's argument goes out of place when a read can follow it on a path that does "
        "not bind the argument anew (mlir-opt 22's bbArg exemption miscompiles: "
        "tests/miscompiles/write_in_later_block_of_entry_arg.mlir)")
_EXTERNAL = ("an external function's results may be one buffer: a write into one result goes out of place "
             "when the other is read later (mlir-opt 22 writes it in place and prints the clobbered value: "
             "tests/test_parity_classes.py::test_external_call_miscompiled_by_mlir_opt)")
DOCUMENTED = {
    **{f"control/{n}": _CFG for n in parity.CFG_CONSERVATIVE},
    "miscompiles/write_in_later_block_of_entry_arg": _CFG,
    "control/fill_whole_shared": "a write of the whole shared output inside scf.forall goes "
                                 "out of place (mlir-opt 22 races: forall_writes_whole_shared_out)",
    "miscompiles/forall_writes_whole_shared_out": "a write of the whole shared output inside "
                                                  "scf.forall goes out of place (mlir-opt 22 races)",
    "known/return_twice": "a function returning one buffer twice: the caller's write into "
                          "one result goes out of place (mlir-opt 22 miscompiles)",
    "known/yield_constant": "an iter_arg fed a yielded constant is read-only (mlir-opt 22 "
                            "writes the global)",
    "known/yield_twice": "one value yielded to two iter_args: they share an alias set "
                         "(mlir-opt 22 miscompiles)",
    "generated_forall_cf/11": "a function returns a slice of a tensor it also returns: the "
                              "callee's results share an alias set, so the caller's write into "
                              "one goes out of place (the return_twice guard; the parity test "
                              "leaves seed 11 out for this reason)",
    "coverage/unknown_loop_yield": "a loop yielding an unknown op's result: the next "
                                   "iteration's write copies (the buffer may be read-only)",
    "vector_differs/masked_cover": "a masked transfer_write does not cover its destination: "
                                   "the dead write before it stays out of place (mlir-opt 22 "
                                   "miscompiles)",
    "vector_differs/row_cover": "a row written into a 2-d tensor does not cover it: the dead "
                                "write before it stays out of place (mlir-opt 22 miscompiles)",
    "vector_differs/run_masked_cover": "as vector_differs/masked_cover",
    "vector_differs/run_row_cover": "as vector_differs/row_cover",
    **{f"classes/{n}": _EXTERNAL for n in ("external_two_results_write_one", "external_read_only_two_results",
                                           "run_external_split")},
}


@dataclass
class Case:
    name: str
    text: str
    osb: str = BOUNDARIES  # mlir-opt's One-Shot options; ours are parsed from the same
    unregistered: bool = False
    rules: Path | None = None  # a --rules directory for bufferlog (mlir-opt has none)


def _files(suite: str, folder: Path, **kw) -> Iterator[Case]:
    for p in sorted(folder.glob("*.mlir")):
        yield Case(f"{suite}/{p.stem}", p.read_text(), **kw)


def _coverage() -> Iterator[Case]:
    for c in _files("coverage", TESTS / "coverage"):
        if c.name.split("/")[1].startswith(("unknown_", "bitcast_")):
            c.osb, c.unregistered = UNKNOWN, True
        if c.name.endswith("no_boundaries_mixed") or c.name.endswith("no_boundaries_main"):
            yield Case(c.name + "[boundaries-off]", c.text, "")
        yield c


def _classes() -> Iterator[Case]:
    """tests/parity_classes: a file's ``// one-shot: OPTIONS`` line gives its One-Shot
    options (default: function boundaries on), its ``// rules: DIR`` line a rules
    directory for bufferlog; unregistered ops are allowed for every file."""
    for p in sorted((TESTS / "parity_classes").glob("*.mlir")):
        text = p.read_text()
        osb = re.search(r"^// one-shot: (.*)$", text, re.M)
        rules = re.search(r"^// rules: (\S+)$", text, re.M)
        yield Case(f"classes/{p.stem}", text, osb.group(1).strip() if osb else BOUNDARIES,
                   True, REPO / rules.group(1) if rules else None)


def _options() -> Iterator[Case]:
    for name in ("two_fills", "if_and_copy"):
        text = (TESTS / "options" / f"{name}.mlir").read_text()
        for h in HEURISTICS:
            yield Case(f"options/{name}[{h}]", text, f"{BOUNDARIES} analysis-heuristic={h}")
    for name in ("no_boundaries", "no_boundaries_call"):
        yield Case(f"options/{name}[boundaries-off]", (TESTS / "options" / f"{name}.mlir").read_text(), "")
    for seed in range(6):
        for h in ("bottom-up", "bottom-up-from-terminators"):
            yield Case(f"options/gen{seed}[{h}]", gen_programs.generate(seed, 12, dps=True),
                       f"{BOUNDARIES} analysis-heuristic={h}")


def _chain() -> Iterator[Case]:
    for n in (10, 31):
        p = subprocess.run([sys.executable, str(SHARED / "oracle" / "gen_chain.py"), str(n)],
                           capture_output=True, text=True)
        if p.returncode == 0:
            yield Case(f"gen_chain/{n}", p.stdout.replace("(%ptr : tensor<*xf32>)", "(tensor<*xf32>)"))


SUITES = {
    "corpus": lambda: (Case(f"corpus/{p.parent.name}/{p.stem}", p.read_text())
                       for p in sorted((SHARED / "corpus").glob("**/*.mlir"))),
    "small": lambda: (Case(f"small/{n}", t) for n, t in sorted(parity.SMALL.items())),
    "control": lambda: [*(Case(f"control/{n}", t) for n, t in sorted(parity.CONTROL.items())),
                        Case("control/fill_whole_shared", parity.FILL_WHOLE_SHARED)],
    "gen_chain": _chain,
    "generated": lambda: (Case(f"generated/{s}", gen_programs.generate(s, 12)) for s in parity.GEN_SEEDS),
    "generated_forall_cf": lambda: (Case(f"generated_forall_cf/{s}",
                                         gen_programs.generate(s, 12, forall=True, cf=True))
                                    for s in sorted({*parity.GEN_FORALL_CF_SEEDS, 11})),
    "parity": lambda: _files("parity", TESTS / "parity"),
    "coverage": _coverage,
    "classes": _classes,
    "options": _options,
    "vector": lambda: _files("vector", TESTS / "vector"),
    "vector_differs": lambda: _files("vector_differs", TESTS / "vector_differs"),
    "generated_vector": lambda: (Case(f"generated_vector/{s}", gen_vector_programs.generate(s))
                                 for s in range(12)),
    "known": lambda: (Case(f"known/{n}", t) for n, t in sorted(gen_programs.known_miscompile_programs().items())),
    "miscompiles": lambda: _files("miscompiles", TESTS / "miscompiles"),
}


def theirs(case: Case) -> list | str:
    """mlir-opt's decisions, or its first error line."""
    flags = ["--allow-unregistered-dialect"] if case.unregistered else []
    if "vector.mask" in case.text:  # its custom form hides the yield and the yield's decision
        flags.append("--mlir-print-op-generic")
    osb = f"{case.osb} test-analysis-only allow-return-allocs-from-loops".strip()
    try:
        return oracle.inplace_decisions(oracle.mlir_opt(case.text, *flags, f"--one-shot-bufferize={osb}"))
    except oracle.OracleError as e:
        return next((ln for ln in e.stderr.splitlines() if "error:" in ln), "error")


def ours(case: Case) -> list | str:
    """Our decisions in source order (how mlir-opt prints them), or our error."""
    options = parse_pass_options(case.osb + (" bufferize-function-boundaries=false"
                                             if BOUNDARIES not in case.osb else ""))
    try:
        _, an, dec = analyze_module(parse(case.text, case.name), engine="embedded", rules_dir=case.rules,
                                    options=options)
    except UserError as e:
        return str(e).splitlines()[0]
    ann = operand_annotations(an, dec)
    return [(an.name[o], ann[o]) for o in sorted(ann, key=lambda o: an.loc[o][1:])]


def operands(decisions: list) -> int:
    return sum(v != "none" for _, vs in decisions for v in vs)


def same_operands(got: list, want: list) -> int:
    """Operands whose decision is identical; 0 when the ops themselves differ."""
    if [n for n, _ in got] != [n for n, _ in want] or any(len(a) != len(b) for (_, a), (_, b)
                                                           in zip(got, want, strict=True)):
        return 0
    return sum(x == y != "none" for (_, a), (_, b) in zip(got, want, strict=True)
               for x, y in zip(a, b, strict=True))


def compare(case: Case) -> dict:
    want, got = theirs(case), ours(case)
    if isinstance(want, str):
        return {"case": case.name, "mlir_opt": "rejects", "operands": 0, "identical_operands": 0,
                "identical": isinstance(got, str), "ours": got if isinstance(got, str) else "accepts"}
    row = {"case": case.name, "operands": operands(want), "identical": got == want}
    row["identical_operands"] = 0 if isinstance(got, str) else same_operands(got, want)
    if isinstance(got, str):
        row["ours"] = got
    elif got != want:
        row["differs_at"] = [[k, n, a, b] for k, ((n, a), (_, b)) in enumerate(zip(got, want, strict=False))
                             if a != b][:4]
    return row


def _sum(suites) -> dict:
    suites = list(suites)
    return {k: sum(s[k] for s in suites) for k in ("inputs", "identical", "operands", "identical_operands")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", action="append", choices=sorted(SUITES),
                    help="run only these suites (default: all)")
    args = ap.parse_args(argv)
    oracle.require(run=False)
    t0 = time.perf_counter()
    rows, per_suite = [], {}
    for suite in args.suite or SUITES:
        got = [compare(c) for c in SUITES[suite]()]
        rows += got
        per_suite[suite] = {"inputs": len(got), "identical": sum(r["identical"] for r in got),
                            "operands": sum(r["operands"] for r in got),
                            "identical_operands": sum(r["identical_operands"] for r in got)}
    differing = [r for r in rows if not r["identical"]]
    for r in differing:
        r["reason"] = DOCUMENTED.get(r["case"], "UNDOCUMENTED")
    total, analysis = _sum(per_suite.values()), _sum(s for n, s in per_suite.items() if n not in EXHIBITS)
    print("| suite | inputs | identical | operands | identical operands |\n|---|---|---|---|---|")
    for name, s in [*per_suite.items(), ("**total**", total),
                    ("**total without the miscompile exhibits**", analysis)]:
        print(f"| {name} | {s['inputs']} | {s['identical']} | {s['operands']} | {s['identical_operands']} |")
    for name, s in (("all", total), ("without the miscompile exhibits", analysis)):
        print(f"\n{name}: inputs identical {s['identical']}/{s['inputs']} = "
              f"{s['identical'] / max(s['inputs'], 1):.2%}; operands identical "
              f"{s['identical_operands']}/{s['operands']} = "
              f"{s['identical_operands'] / max(s['operands'], 1):.2%}")
    print("\ndiffering cases:")
    for r in differing:
        print(f"- {r['case']}: {r['reason']}" + (f" (ours: {r['ours']})" if "ours" in r else ""))
    out = save("parity", {"seconds": round(time.perf_counter() - t0, 1), "total": total,
                          "total_without_exhibits": analysis,
                          "suites": per_suite, "differing": differing,
                          "rejected_by_both": [r["case"] for r in rows if r.get("mlir_opt") == "rejects"]})
    print(f"\nwrote {out}")
    return 1 if any(r["reason"] == "UNDOCUMENTED" for r in differing) else 0


if __name__ == "__main__":
    sys.exit(main())
