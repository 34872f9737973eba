"""Sweep generated programs through ``bufferlog bufferize`` and the semantic reference.

Each program of tests/gen_programs.py is bufferized by bufferlog with each strategy, run
under mlir-runner-22 with the counting allocator, and compared with the copy-before-write
semantic reference (mlir-opt-22's pipeline with every write into a fresh copy):
same printed values, exit code 0, no leak, no double or foreign free. The output
certificate checks every bufferized program too (an OutputCertificateError is reported
as an error, whether the values are right or not).

CLI: ``python -m tests.sweep --seeds 0:500 --size 12 --dps [--forall] [--cf] [--views]
[--arg-loops] [--multi-outs] [--high-rank] [--slice-writes] [--plan all] [--private]
[--copies] [--no-certify] [-j 2]`` prints one line per failing (seed, strategy) and a summary;
exit 1 if any failed. ``--plan``: the memory planning stages (``default``, ``none``,
``all``); ``--private``: every function but ``@main`` is private (out-parameters apply).
``--copies`` runs nothing: it checks instead that ``oneshot`` (mlir-opt's decisions) makes
no more copies+clones and copies no more bytes than mlir-opt-22's pipeline
(docs/memory-planning.md).
"""

from __future__ import annotations

import argparse
import re
import sys
from concurrent.futures import ProcessPoolExecutor

try:
    from tests import gen_programs, oracle
except ImportError:  # tests/ on sys.path
    import gen_programs
    import oracle

STRATEGIES = ("oneshot", "optimal")


def bufferize_text(text: str, strategy: str, plan: str = "default") -> str:
    """``text`` bufferized (with deallocation), without the output certificate."""
    return bufferize_certified(text, strategy, plan, certify=False)[0]


def bufferize_certified(text: str, strategy: str, plan: str = "default",
                        certify: bool = True) -> tuple[str, str | None]:
    """``text`` bufferized (with deallocation) and the output certificate's verdict on it,
    as ``bufferlog bufferize`` gives it: None, or the OutputCertificateError's message
    (the output is still returned, so that a run can tell a false alarm)."""
    from bufferlog.backend.bufferize import bufferize
    from bufferlog.backend.plan import PlanOptions
    from bufferlog.frontend.parser import parse
    from bufferlog.frontend.printer import print_module

    opts = {"default": PlanOptions(), "none": PlanOptions.off(), "all": PlanOptions.all()}[plan]
    module = bufferize(parse(text, "<gen>"), strategy, True, plan=opts)
    failed = None
    if certify:
        from bufferlog.backend.certify_output import OutputCertificateError, certify_output

        try:
            certify_output(module)
        except OutputCertificateError as e:
            failed = str(e)
    return print_module(module), failed


def reference_run(text: str) -> oracle.RunResult:
    """The semantic reference's run; where mlir-opt-22 cannot build it (its
    copy-before-write mode crashes on some programs), its plain pipeline's run (the
    generator avoids the shapes that pipeline is known to miscompile)."""
    try:
        return oracle.run_semantic(text)
    except oracle.OracleError:
        return oracle.run_reference(text)


def check(text: str, strategies=STRATEGIES, plan: str = "default",
          certify: bool = True) -> dict[str, str]:
    """Verdict per strategy: "ok", or what went wrong ("wrong", "crash", "leak",
    "error: ...", "certificate (<what the run gave>): ..." when the output certificate
    failed: with "ok" there, a false alarm)."""
    sem = reference_run(text)
    out = {}
    runs: dict[str, str] = {}  # one run per distinct output (optimal often equals oneshot)

    def verdict(ir: str) -> str:
        if ir not in runs:
            runs[ir] = _run_verdict(ir, sem)
        return runs[ir]

    for s in strategies:
        fallback = None
        try:
            ir, failed = bufferize_certified(text, s, plan, certify)
            if failed and s == "optimal":
                # what `bufferlog bufferize --strategy optimal` does then: oneshot's
                # decisions, certified in turn (the optimal output is still run, to tell a
                # false alarm from a caught miscompile)
                wrong_optimal = verdict(ir)
                fallback = f"fallback ({wrong_optimal}): {failed[:120]}"
                ir, failed = bufferize_certified(text, "oneshot", plan, certify)
        except Exception as e:  # a refusal is not a miscompile, but it is reported
            out[s] = f"error: {type(e).__name__}: {str(e)[:200]}"
            continue
        out[s] = verdict(ir)
        if failed:
            out[s] = f"certificate ({out[s]}): {failed[:200]}"
        elif fallback and out[s] == "ok":
            out[s] = f"ok, {fallback}"
    return out


def _run_verdict(ir: str, sem: oracle.RunResult) -> str:
    """"ok", "crash", "wrong", "leak (...)" or "error: lowering: ..." for memref IR ``ir``
    run against the reference's run ``sem``."""
    try:
        r = oracle.run_program(ir)
    except oracle.OracleError as e:
        return f"error: lowering: {str(e)[:200]}"
    if r.returncode != 0:
        return "crash"
    if r.data != sem.data:
        return "wrong"
    if not r.clean:
        return f"leak (live={r.live} double={r.double_frees} bad={r.bad_frees})"
    return "ok"


def copy_figures(ir: str) -> tuple[int, int]:
    """(copies + clones, bytes copied) of memref IR ``ir`` (backend/quality.py)."""
    from bufferlog.backend.quality import count_figures

    f = count_figures(oracle.mlir_opt(ir, "--mlir-print-op-generic"), "<memref>")
    return f["copies"] + f["clones"], f["bytes_copied"]


def check_copies(text: str, plan: str = "default") -> dict[str, str]:
    """Verdict for oneshot: "ok", or "more copies" with both sides' figures."""
    mine = copy_figures(bufferize_text(text, "oneshot", plan))
    ref = copy_figures(oracle.reference_bufferize(text))
    ok = mine[0] <= ref[0] and mine[1] <= ref[1]
    return {"oneshot": "ok" if ok else f"more copies: (copies, bytes) {mine} vs mlir-opt {ref}"}


def _one(job):
    seed, size, flags, plan, private, copies, certify = job
    text = gen_programs.generate(seed, size, **flags)
    if private:
        text = re.sub(r"func\.func @(?!main\b)", "func.func private @", text)
    try:
        if copies:
            return seed, check_copies(text, plan=plan)
        return seed, check(text, plan=plan, certify=certify)
    except oracle.OracleError as e:  # the reference itself failed: not our verdict
        return seed, {s: f"skip: reference failed: {str(e)[:120]}" for s in STRATEGIES}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0:100", help="START:STOP")
    ap.add_argument("--size", type=int, default=12)
    ap.add_argument("--dps", action="store_true")
    ap.add_argument("--forall", action="store_true")
    ap.add_argument("--cf", action="store_true")
    ap.add_argument("--views", action="store_true",
                    help="calls take slices, helpers return writes into parameters")
    for flag, what in gen_programs.CLASS_FLAGS.items():
        ap.add_argument(f"--{flag}", action="store_true", help=what)
    ap.add_argument("--plan", choices=("default", "none", "all"), default="default")
    ap.add_argument("--private", action="store_true")
    ap.add_argument("--copies", action="store_true", help="compare copy figures with mlir-opt")
    ap.add_argument("--no-certify", action="store_true",
                    help="do not run the output certificate on bufferlog's output")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args(argv)
    lo, hi = (int(x) for x in a.seeds.split(":"))
    flags = {"dps": a.dps, "forall": a.forall, "cf": a.cf, "views": a.views}
    flags |= {f.replace("-", "_"): getattr(a, f.replace("-", "_")) for f in gen_programs.CLASS_FLAGS}
    tally: dict[str, int] = {}
    with ProcessPoolExecutor(a.jobs) as pool:
        jobs = [(s, a.size, flags, a.plan, a.private, a.copies, not a.no_certify)
                for s in range(lo, hi)]
        for seed, verdicts in pool.map(_one, jobs):
            for strat, v in verdicts.items():
                key = v.split(":")[0].split(" (")[0]
                if v.startswith("certificate (ok)"):
                    key = "certificate-false-alarm"  # the values were right
                elif v.startswith("ok, fallback (ok)"):
                    key = "ok-optimal-fallback"  # right values; the certificate refused optimal's
                elif v.startswith("ok, fallback"):
                    key = "ok-optimal-caught"  # optimal's output was wrong and refused
                tally[key] = tally.get(key, 0) + 1
                if v != "ok":
                    print(f"seed {seed} {strat}: {v}", flush=True)
    print("summary:", ", ".join(f"{k}={n}" for k, n in sorted(tally.items())))
    bad = sum(n for k, n in tally.items() if not k.startswith("ok") and k != "skip")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
