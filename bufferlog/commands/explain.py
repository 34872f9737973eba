"""``bufferlog explain [FILE] [--op <line|%name>]``: with ``--op``, why each tensor operand
of an op is in place or not (``bufferlog.engine.explanation``; ``--proof`` adds the
engine's proof trees); without, every copy of the bufferized file with its cause."""

from __future__ import annotations

import json

from bufferlog.commands import COMMANDS, add_file, join_outputs, read_input, run_chunks
from bufferlog.commands.analyze import add_analysis_options, oneshot_options
from bufferlog.commands.bufferize import add_plan_options, plan_options


def register(sub) -> None:
    p = sub.add_parser("explain", help=COMMANDS["explain"])
    add_file(p)
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
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import analyze, explain, parse

    def work(text: str, name: str) -> str:
        if args.alloc is not None:
            from bufferlog.api import explain_alloc, render_alloc_explanation

            items = explain_alloc(parse(text, name), args.alloc, strategy=args.strategy,
                                  engine=args.engine, rules=args.rules,
                                  options=oneshot_options(args), plan=plan_options(args))
            return (json.dumps(items, indent=2) + "\n" if args.format == "json"
                    else render_alloc_explanation(items))
        if args.op is None:
            from bufferlog.api import explain_copies

            listing = explain_copies(parse(text, name), strategy=args.strategy,
                                     engine=args.engine, rules=args.rules,
                                     options=oneshot_options(args), plan=plan_options(args))
            return (json.dumps(listing.to_json(), indent=2) + "\n" if args.format == "json"
                    else listing.text())
        a = analyze(parse(text, name), strategy=args.strategy, engine=args.engine,
                    rules=args.rules, z3_slices=args.z3_slices,
                    options=oneshot_options(args, analysis_only=True))
        res = explain(a, args.op, engine=args.engine, rules=args.rules, depth=args.depth,
                      proof=args.proof)
        return json.dumps(res.to_json(), indent=2) + "\n" if args.format == "json" else res.text()

    name, text = read_input(args.file)
    target = args.op if args.op is not None else args.alloc
    outputs, code = run_chunks(args, name, text, work, select=_chunk_of(target, name))
    if getattr(args, "split_input_file", None):
        done = [o for o in outputs if o is not None]
        print(join_outputs(done) if len(done) > 1 else "".join(done), end="")
    elif outputs[0] is not None:
        print(outputs[0], end="")
    return code


def _chunk_of(target: str | None, name: str):
    """With ``--split-input-file``: the chunk a line target (``LINE`` or ``FILE:LINE``
    of the input) is in; a ``%name`` is looked for in the chunks that write it; no target:
    every chunk."""
    import re

    m = re.fullmatch(r"(?:(?P<file>.*):)?(?P<line>\d+)(?::\d+)?", target or "")
    if m and (m["file"] is None or m["file"] == name):
        line = int(m["line"])
        return lambda c: c.first_line <= line <= c.text.count("\n") + 1
    if target and target.startswith("%"):
        word = re.compile(re.escape(target) + r"(?![\w$.-])")
        return lambda c: word.search(c.text) is not None
    return None
