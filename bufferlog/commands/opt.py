"""``bufferlog opt [FILE|-] PASSES... [-o OUT]`` (and the ``bufferlog-opt`` executable):
mlir-opt's bufferization passes, in mlir-opt's syntax and order, run by bufferlog's stages
(``bufferlog.app.pipeline``): ``-one-shot-bufferize="..."``, ``-buffer-deallocation-pipeline``,
``--pass-pipeline="builtin.module(...)"``, ... A pasted RUN line works as written; a pass
bufferlog does not run is an error naming it."""

from __future__ import annotations

import argparse

from bufferlog.commands import COMMANDS, add_engine, add_io, add_rules, run_on_input
from bufferlog.commands.analyze import add_split


class PassAction(argparse.Action):
    """Appends ``Pass(name, options)`` to ``passes`` in command-line order."""

    def __call__(self, parser, namespace, values, option_string=None):
        from bufferlog.app.pipeline import Pass

        passes = list(getattr(namespace, self.dest, None) or [])
        passes.append(Pass(option_string.lstrip("-"), values or ""))
        setattr(namespace, self.dest, passes)


def register(sub) -> None:
    from bufferlog.app.pipeline import PASSES

    p = sub.add_parser(
        "opt", help=COMMANDS["opt"],
        description="mlir-opt's bufferization passes in mlir-opt's syntax (one dash or two; "
                    "a pass's options after '='), run in the order given. Any other pass is an "
                    "error naming it.")
    add_io(p)
    g = p.add_argument_group("passes (mlir-opt's, in order)")
    for name, (_, options, what) in PASSES.items():
        opts = f" (options: {', '.join(f'{k}={v}' for k, v in options.items())})" if options else ""
        g.add_argument(f"--{name}", dest="passes", action=PassAction, nargs="?", const="",
                       metavar="=OPTIONS", help=what + opts)
    g.add_argument("--pass-pipeline", metavar="PIPELINE",
                   help="the passes as mlir-opt's textual pipeline, "
                        "e.g. 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, "
                        "func.func(buffer-hoisting), buffer-deallocation-pipeline)'")
    b = p.add_argument_group("bufferlog's options")
    b.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="oneshot: mlir-opt's decisions (default); optimal: fewest copied bytes")
    add_engine(b)
    add_rules(b)
    add_split(b)
    p.set_defaults(func=run, passes=None)


def run(args) -> int:
    from bufferlog.api import parse
    from bufferlog.app import pipeline
    from bufferlog.core import UserError

    if args.pass_pipeline is not None:
        if args.passes:
            raise UserError("'--pass-pipeline' option can't be used with individual pass "
                            "options (as in mlir-opt)")
        passes = pipeline.parse_pipeline(args.pass_pipeline)
    else:
        passes = args.passes or []
    for p in passes:
        if p.name != "one-shot-bufferize":
            pipeline.pass_options(p)  # option errors before reading the input

    def work(text: str, name: str) -> str:
        return pipeline.run(parse(text, name), passes, strategy=args.strategy,
                            engine=args.engine, rules=args.rules, split_ops=args.split_ops,
                            debuginfo=args.mlir_print_debuginfo, generic=args.generic)

    return run_on_input(args, work)
