"""``bufferlog print FILE|- [-o OUT] [--generic]``: parse MLIR and print it back."""

from __future__ import annotations

import argparse

from bufferlog.commands import add_io, read_input, write_output


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("print", help="parse an MLIR file and print it back")
    add_io(p)
    p.add_argument("--generic", action="store_true",
                   help="print every op in the generic form")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bufferlog.frontend.parser import parse
    from bufferlog.frontend.printer import print_module

    name, text = read_input(args.file)
    module = parse(text, name)
    write_output(args.output, print_module(module, generic=args.generic))
    return 0
