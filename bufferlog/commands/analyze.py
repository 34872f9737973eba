"""``bufferlog analyze FILE``: One-Shot in-place analysis, printed like
``mlir-opt --one-shot-bufferize="bufferize-function-boundaries test-analysis-only
print-conflicts"`` (``__inplace_operands_attr__``, ``C_n[...]`` conflict tags,
``bufferization.access`` argument attributes, ``__equivalent_func_args__``), or as JSON
(``bufferlog.Analysis.to_json``)."""

from __future__ import annotations

import argparse
import sys

from bufferlog.commands import COMMANDS, add_engine, add_io, add_rules, run_on_input


def add_analysis_options(p) -> None:
    p.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="oneshot: mlir-opt's greedy order (default); optimal: fewest copied bytes (Z3)")
    add_engine(p)
    add_rules(p)
    p.add_argument("--z3-slices", action=argparse.BooleanOptionalAction, default=None,
                   help="drop conflicts between slices Z3 proves equal or disjoint (beyond "
                        "mlir-opt; default: off for oneshot, on for optimal)")
    add_oneshot_options(p)


def add_oneshot_options(p) -> None:
    """mlir-opt's One-Shot Bufferize options, under its names (engine/options.py)."""
    from bufferlog.engine.options import HEURISTICS

    g = p.add_argument_group("One-Shot options (mlir-opt's names)")
    g.add_argument("--one-shot-bufferize", metavar="=OPTIONS", nargs="?", const="",
                   default=None,
                   help='mlir-opt\'s option string, pasted as is (--one-shot-bufferize="..."): '
                        "it means what it means to mlir-opt, every option it leaves out at "
                        "mlir-opt's default (function boundaries off, ...); the flags below "
                        "override it")
    g.add_argument("--bufferize-function-boundaries", action=argparse.BooleanOptionalAction,
                   default=None, help="bufferize function signatures and calls (default: on, "
                                      "unlike mlir-opt; off when --one-shot-bufferize does "
                                      "not name it)")
    g.add_argument("--analysis-heuristic", choices=HEURISTICS, default=None,
                   help="the order of the in-place decisions (default: bottom-up)")
    g.add_argument("--allow-unknown-ops", action="store_const", const=True, default=None,
                   help="bufferize around ops bufferlog does not know (to_buffer/to_tensor)")
    g.add_argument("--unknown-type-conversion", default=None,
                   choices=("fully-dynamic-layout-map", "identity-layout-map"),
                   help="memref layout of tensors crossing unknown ops")
    g.add_argument("--copy-before-write", action="store_const", const=True, default=None,
                   help="no analysis: every write goes to a fresh copy")
    g.add_argument("--dump-alias-sets", action="store_const", const=True, default=None,
                   help="annotate every tensor result and block argument with its alias set")


def oneshot_options(args, analysis_only: bool = False):
    """The OneShotOptions of the parsed command line: bufferlog's defaults, or, when
    ``--one-shot-bufferize`` is given, its string read from mlir-opt's defaults (with
    ``test-analysis-only`` set for a command that only analyses); then the flags."""
    from bufferlog.core.records import replace
    from bufferlog.engine.options import OneShotOptions, parse_pass_options

    text = getattr(args, "one_shot_bufferize", None)
    if text is None:
        opts = OneShotOptions()
    else:
        opts = parse_pass_options(text, replace(OneShotOptions.mlir_opt(),
                                                test_analysis_only=analysis_only))
    flags = {"bufferize_function_boundaries": "bufferize_function_boundaries",
             "analysis_heuristic": "analysis_heuristic", "allow_unknown_ops": "allow_unknown_ops",
             "unknown_type_conversion": "unknown_type_conversion",
             "copy_before_write": "copy_before_write", "dump_alias_sets": "dump_alias_sets"}
    changes = {field: getattr(args, flag) for flag, field in flags.items()
               if getattr(args, flag, None) is not None}
    return replace(opts, **changes) if changes else opts


def add_split(p) -> None:
    from bufferlog.api import SPLIT_OPS

    def count(text: str) -> int:
        if not text.isdigit():
            raise argparse.ArgumentTypeError(f"expected a number of ops (0: never split), got '{text}'")
        return int(text)

    p.add_argument("--split-ops", type=count, default=SPLIT_OPS, metavar="N",
                   help="analyse a module of more than N ops by parts: functions with all they "
                        "call or are called by, one part's engine state in memory at a time; "
                        f"same output (0: the whole module at once; default {SPLIT_OPS})")


def add_stats(p) -> None:
    p.add_argument("--stats", action="store_true",
                   help="print the file's figures (the batch row's) on stderr")


def print_stats(figures: dict) -> None:
    import json  # only here and for --format json: not every run's start-up

    print(" ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in figures.items()),
          file=sys.stderr)


def register(sub) -> None:
    p = sub.add_parser("analyze", help=COMMANDS["analyze"])
    add_io(p)
    add_analysis_options(p)
    p.add_argument("--format", choices=("mlir", "json"), default="mlir")
    add_stats(p)
    add_split(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import analyze, parse
    from bufferlog.core.records import asdict

    def work(text: str, name: str) -> str:
        a = analyze(parse(text, name), strategy=args.strategy, engine=args.engine,
                    rules=args.rules, z3_slices=args.z3_slices,
                    options=oneshot_options(args, analysis_only=True), split_ops=args.split_ops)
        if args.stats:
            print_stats(asdict(a.figures))
        if args.format == "json":
            import json

            return json.dumps(a.to_json(), indent=2) + "\n"
        return a.annotated(args.mlir_print_debuginfo, args.generic)

    return run_on_input(args, work)
