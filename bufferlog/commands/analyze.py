"""``bufferlog analyze FILE``: One-Shot in-place analysis, printed like
``mlir-opt --one-shot-bufferize="bufferize-function-boundaries test-analysis-only
print-conflicts"`` (``__inplace_operands_attr__``, ``C_n[...]`` conflict tags,
``bufferization.access`` argument attributes, ``__equivalent_func_args__``), or as JSON
(``bufferlog.Analysis.to_json``)."""

from __future__ import annotations

import argparse
import json
import sys

from bufferlog.commands import add_engine, add_io, add_rules, run_on_input


def add_analysis_options(p) -> None:
    p.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="oneshot: mlir-opt's greedy order (default); optimal: fewest copied bytes (Z3)")
    add_engine(p)
    add_rules(p)
    p.add_argument("--z3-slices", action=argparse.BooleanOptionalAction, default=None,
                   help="drop conflicts between slices Z3 proves equal or disjoint (beyond "
                        "mlir-opt; default: off for oneshot, on for optimal)")


def add_stats(p) -> None:
    p.add_argument("--stats", action="store_true",
                   help="print the file's figures (the batch row's) on stderr")


def print_stats(figures: dict) -> None:
    print(" ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in figures.items()),
          file=sys.stderr)


def register(sub) -> None:
    p = sub.add_parser("analyze", help="in-place analysis (annotated tensor IR, mlir-opt style)")
    add_io(p)
    add_analysis_options(p)
    p.add_argument("--format", choices=("mlir", "json"), default="mlir")
    add_stats(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from dataclasses import asdict

    from bufferlog.api import analyze, parse

    def work(text: str, name: str) -> str:
        a = analyze(parse(text, name), strategy=args.strategy, engine=args.engine,
                    rules=args.rules, z3_slices=args.z3_slices)
        if args.stats:
            print_stats(asdict(a.figures))
        if args.format == "json":
            return json.dumps(a.to_json(), indent=2) + "\n"
        return a.annotated()

    return run_on_input(args, work)
