"""``bufferlog print [FILE|-] [-o OUT] [--mlir-print-op-generic]``: parse MLIR and print it
back."""

from __future__ import annotations

import argparse

from bufferlog.commands import COMMANDS, add_io, run_on_input


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("print", help=COMMANDS["print"])
    add_io(p)
    p.add_argument("--generic", dest="generic", action="store_true",
                   help="the same as --mlir-print-op-generic")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bufferlog.api import parse
    from bufferlog.frontend.printer import print_module

    return run_on_input(args, lambda text, name: print_module(parse(text, name),
                                                              generic=args.generic,
                                                              debuginfo=args.mlir_print_debuginfo))
