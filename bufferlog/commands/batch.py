"""``bufferlog batch PATH... [--jobs N] [--timeout S] [--report OUT.json|csv|html]``:
analyse a corpus, one row per file (see ``bufferlog.app.batch.COLUMNS``)."""

from __future__ import annotations

import argparse
import os
import sys

from bufferlog.commands import COMMANDS, add_check_output, add_split
from bufferlog.commands.analyze import add_oneshot_options
from bufferlog.commands.bufferize import add_plan_options
from bufferlog.core import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "batch", help=COMMANDS["batch"],
        description="Analyse files, directories (recursive *.mlir) and globs. A bad or slow "
                    "file becomes an error row; Ctrl-C writes a partial report.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, directories or glob patterns")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="parallel worker processes (default: CPU count)")
    p.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="per-file time limit in seconds; the file's worker is killed")
    p.add_argument("--max-memory", type=memory_size, default=None, metavar="SIZE",
                   help="resident memory limit per worker, e.g. 2G or 500M; a worker over it is "
                        "killed and replaced, its file becomes an out-of-memory row")
    p.add_argument("--report", metavar="OUT", help="report file: .json, .csv or .html")
    p.add_argument("--compare", choices=["mlir-opt"], default=None,
                   help="also run mlir-opt-22 on every file and report its figures alongside")
    p.add_argument("--mlir-opt", default="mlir-opt-22", metavar="EXE",
                   help="the mlir-opt that --compare runs (default: mlir-opt-22 on PATH)")
    p.add_argument("--engine", choices=["auto", "souffle", "embedded"], default="auto")
    p.add_argument("--rules", metavar="DIR", help="user rule files adding to/overriding rules/")
    p.add_argument("--strategy", choices=["oneshot", "optimal"], default="oneshot")
    p.add_argument("--layout", default=None,
                   choices=("identity-layout-map", "fully-dynamic-layout-map", "infer-layout-map"),
                   help="memref layout of function arguments and results, as bufferize's")
    add_oneshot_options(p)
    add_plan_options(p)
    add_split(p)
    p.add_argument("--cache-dir", metavar="DIR",
                   help="result cache (default: $XDG_CACHE_HOME/bufferlog or ~/.cache/bufferlog)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument("--executor", choices=["local", "dask"], default="local")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="Dask scheduler address (default with --executor dask: a LocalCluster)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    add_check_output(p)
    # Test-only fault injection: sleep SECONDS, or hold MIB of memory, in files matching GLOB
    # (--debug-sleep-mark FILE: create FILE when the sleep starts, for a test to wait on).
    p.add_argument("--debug-sleep", nargs=2, metavar=("GLOB", "SECONDS"), help=argparse.SUPPRESS)
    p.add_argument("--debug-sleep-mark", metavar="FILE", help=argparse.SUPPRESS)
    p.add_argument("--debug-alloc", nargs=2, metavar=("GLOB", "MIB"), help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def memory_size(text: str) -> int:
    """``2G``, ``500M``, ``64K`` or bytes -> bytes (argparse type)."""
    units = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    s = text.strip().upper().removesuffix("B").removesuffix("I")
    num, unit = (s[:-1], s[-1]) if s and s[-1] in units else (s, "")
    try:
        value = float(num) * units[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a memory size: '{text}' (e.g. 2G, 500M)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return int(value)


def run(args) -> int:
    from bufferlog.app import batch as B
    from bufferlog.app.report import report_format, write_report

    if args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    if args.timeout is not None and args.timeout <= 0:
        raise UserError("--timeout must be positive")
    if args.report:
        report_format(args.report)  # fail early on a bad extension
    if args.scheduler and args.executor != "dask":
        raise UserError("--scheduler needs --executor dask")
    files = B.discover(args.paths)
    if not files:
        raise UserError("no .mlir files found")
    if args.split_input_file:
        files = B.split_chunks(files, args.split_input_file)
    opts = B.BatchOptions(
        engine=args.engine, rules_dir=args.rules, strategy=args.strategy,
        split_input_file=args.split_input_file,
        compare=args.compare, mlir_opt=args.mlir_opt, timeout=args.timeout,
        max_memory=args.max_memory, oneshot=oneshot_text(args),
        oneshot_mlir_opt=getattr(args, "one_shot_bufferize", None) is not None, plan=_plan(args),
        layout=args.layout, check_output=args.check_output,
        pages=bool(args.report) and report_format(args.report) == "html",
        debug_sleep={"pattern": args.debug_sleep[0], "seconds": float(args.debug_sleep[1]),
                     "mark": args.debug_sleep_mark}
        if args.debug_sleep else None,
        debug_alloc={"pattern": args.debug_alloc[0], "mib": int(args.debug_alloc[1])}
        if args.debug_alloc else None)
    cache = None if args.no_cache else B.ResultCache(args.cache_dir or B.default_cache_dir())
    if args.executor == "dask":
        executor = B.DaskExecutor(args.scheduler, args.jobs)
    else:
        executor = B.LocalExecutor(args.jobs)
    progress = B.Progress(len(files), quiet=args.quiet)
    res = B.run_batch(files, opts, executor, cache, progress)
    s = res.summary()
    if args.report:
        out = write_report(res, args.report)
        print(f"report: {out}", file=sys.stderr)
    if not args.quiet or res.interrupted:
        st = ", ".join(f"{k} {v}" for k, v in sorted(s["status"].items()))
        print(f"{s['done']}/{s['files']} files in {s['elapsed_s']:.2f} s ({st}; "
              f"{s['cache_hits']} from cache)", file=sys.stderr)
    if not args.report and not args.quiet:
        _print_table(res.rows)
    if not args.quiet:
        _print_totals(res)
    if res.interrupted:
        print("error: interrupted; the report lists every file, those not done as not_run", file=sys.stderr)
        # the workers are stopped and the report is written: leave without the
        # interpreter's exit-time joins of multiprocessing helpers, which a second Ctrl-C
        # or a stuck helper could otherwise turn into a hang
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    return 0 if all(r["status"] in ("ok", "empty") for r in res.rows) else 1


def oneshot_text(args) -> str:
    """The One-Shot options of the command line in mlir-opt's syntax: the option string,
    then the flags (a later option wins), for bufferlog's analysis and mlir-opt's runs."""
    parts = [getattr(args, "one_shot_bufferize", "") or ""]
    flag = getattr(args, "bufferize_function_boundaries", None)
    if flag is not None:
        parts.append(f"bufferize-function-boundaries={'true' if flag else 'false'}")
    for name in ("analysis_heuristic", "unknown_type_conversion"):
        v = getattr(args, name, None)
        if v is not None:
            parts.append(f"{name.replace('_', '-')}={v}")
    for name in ("allow_unknown_ops", "copy_before_write", "dump_alias_sets"):
        if getattr(args, name, None):
            parts.append(name.replace("_", "-"))
    text = " ".join(p for p in parts if p)
    if text:
        from bufferlog.engine.options import parse_pass_options

        parse_pass_options(text)  # a bad option is a usage error now, not one per file
    return text


def _plan(args) -> dict | None:
    """The planning stages when the command line changes them (None: the defaults)."""
    from bufferlog.backend.plan import PlanOptions
    from bufferlog.commands.bufferize import plan_options
    from bufferlog.core.records import asdict

    plan = plan_options(args)
    return None if plan == PlanOptions() else asdict(plan)


#: the terminal totals: (label, bufferlog's key, mlir-opt's key)
TOTALS = [("files", None, None), ("ops", "ops", None),
          ("in-place %", "inplace_pct", "mlir_opt_inplace_pct"),
          ("out-of-place operands", "out_of_place_operands", None),
          ("conflicts", "conflicts", "mlir_opt_conflicts"),
          ("copies", "copies", "mlir_opt_copies"), ("bytes copied", "bytes_copied", "mlir_opt_bytes_copied"),
          ("allocs", "allocs", "mlir_opt_allocs"), ("deallocs", "deallocs", "mlir_opt_deallocs"),
          ("runtime dealloc checks", "dealloc_checks", "mlir_opt_dealloc_checks"),
          ("clones", "clones", "mlir_opt_clones"), ("seconds", "analysis_s", "mlir_opt_s")]


def _print_totals(res) -> None:
    """The batch's totals as a table (with --compare: mlir-opt's beside, and the files
    whose figures differ from mlir-opt's)."""
    s = res.summary()
    t = s["totals"]
    cmp = res.options.compare == "mlir-opt"
    rows = [["", "bufferlog"] + (["mlir-opt", "difference"] if cmp else [])]
    for label, mine, theirs in TOTALS:
        if mine is None:
            st = ", ".join(f"{k} {v}" for k, v in sorted(s["status"].items()))
            theirs_st = ", ".join(f"{k} {v}" for k, v in sorted((s.get("mlir_opt_status") or {}).items()))
            rows.append([label, f"{s['done']} ({st})"] + ([theirs_st, ""] if cmp else []))
            continue
        a = t.get(mine)
        b = t.get(theirs) if theirs else None
        cells = [label, _num(a)]
        if cmp:
            d = "" if a is None or b is None or theirs is None else _num(round(a - b, 3), sign=True)
            cells += [_num(b) if theirs else "", d]
        rows.append(cells)
    if cmp:
        from bufferlog.app.batch import differs_from_mlir_opt

        n = sum(1 for r in res.rows if differs_from_mlir_opt(r))
        rows.append(["files differing from mlir-opt", str(n), "", ""])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print("totals:")
    for r in rows:
        print("  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip())


def _num(v, sign: bool = False) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        v = round(v, 3)
    return f"{v:+}" if sign else str(v)


def _print_table(rows: list[dict]) -> None:
    cols = ["status", "ops", "tensor_operands", "inplace_pct", "copies", "allocs", "deallocs",
            "conflicts", "analysis_s"]
    width = max([len(r["file"]) for r in rows] + [4])
    print(f"{'file':<{width}}  " + "  ".join(f"{c:>10.10}" for c in cols))
    for r in rows:
        cells = []
        for c in cols:
            v = r.get(c)
            cells.append("-" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v)))
        line = f"{r['file']:<{width}}  " + "  ".join(f"{x:>10.10}" for x in cells)
        if r.get("error"):
            line += f"  {r['error_loc'] + ': ' if r.get('error_loc') else ''}{r['error']}"
        elif r.get("bufferize_error"):
            loc = r.get("bufferize_error_loc")
            line += f"  {loc + ': ' if loc else ''}{r['bufferize_error']}"
        print(line)
