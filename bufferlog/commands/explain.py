"""``bufferlog explain FILE [--op <line|%name>]``: with ``--op``, why each tensor operand
of an op is in place or not (``bufferlog.engine.explanation``; ``--proof`` adds the
engine's proof trees); without, every copy of the bufferized file with its cause."""

from __future__ import annotations

import json

from bufferlog.commands import COMMANDS, add_common, read_input
from bufferlog.commands.analyze import add_analysis_options, oneshot_options
from bufferlog.commands.bufferize import add_plan_options, plan_options


def register(sub) -> None:
    p = sub.add_parser("explain", help=COMMANDS["explain"])
    p.add_argument("file", metavar="FILE", help="input .mlir file, or - for stdin")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--op", help="source line number or result name (%%x); without --op "
                                   "(and --alloc): every copy of the file with its cause")
    what.add_argument("--alloc", metavar="LINE",
                      help="explain the memref.alloc(s) made for a line instead: where each "
                           "is freed and what buffer it reuses (a line, FILE:LINE[:COL] of the "
                           "input, or FILE:LINE of a bufferize --mlir-print-debuginfo output)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--proof", action="store_true",
                   help="with --op: add the rules' proof trees and why-not answers")
    p.add_argument("--depth", type=int, default=4, help="proof tree depth (default 4)")
    add_analysis_options(p)
    add_plan_options(p)
    add_common(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import analyze, explain, parse

    name, text = read_input(args.file)
    if args.alloc is not None:
        from bufferlog.api import explain_alloc, render_alloc_explanation

        items = explain_alloc(parse(text, name), args.alloc, strategy=args.strategy,
                              engine=args.engine, rules=args.rules,
                              options=oneshot_options(args), plan=plan_options(args))
        print(json.dumps(items, indent=2) if args.format == "json"
              else render_alloc_explanation(items), end="")
        return 0
    if args.op is None:
        from bufferlog.api import explain_copies

        listing = explain_copies(parse(text, name), strategy=args.strategy, engine=args.engine,
                                 rules=args.rules, options=oneshot_options(args),
                                 plan=plan_options(args))
        print(json.dumps(listing.to_json(), indent=2) if args.format == "json"
              else listing.text(), end="")
        return 0
    a = analyze(parse(text, name), strategy=args.strategy, engine=args.engine,
                rules=args.rules, z3_slices=args.z3_slices, options=oneshot_options(args))
    res = explain(a, args.op, engine=args.engine, rules=args.rules, depth=args.depth,
                  proof=args.proof)
    print(json.dumps(res.to_json(), indent=2) if args.format == "json" else res.text(), end="")
    return 0
