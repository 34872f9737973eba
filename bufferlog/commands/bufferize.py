"""``bufferlog bufferize FILE|- [-o OUT] [--strategy oneshot|optimal] [--no-dealloc]
[--function-boundary-type-conversion identity-layout-map|fully-dynamic-layout-map]``:
rewrite tensor IR into memref IR from the in-place decisions, then insert deallocations."""

from __future__ import annotations

from bufferlog.commands import add_io, read_input, write_output


def register(sub) -> None:
    p = sub.add_parser("bufferize", help="tensor IR -> memref IR (in-place analysis + dealloc)")
    add_io(p)
    p.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="oneshot: mlir-opt's greedy decisions (default); optimal: fewest copied bytes")
    p.add_argument("--no-dealloc", action="store_true", help="do not insert deallocations")
    p.add_argument("--function-boundary-type-conversion", dest="layout",
                   choices=("identity-layout-map", "fully-dynamic-layout-map"),
                   default="identity-layout-map",
                   help="memref layout of tensor function arguments and results")
    p.add_argument("--engine", choices=("auto", "souffle", "embedded"), default="auto")
    p.add_argument("--rules", metavar="DIR", help="extra/overriding rule files (e.g. semantics of your own ops)")
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.backend.bufferize import bufferize
    from bufferlog.frontend.parser import parse
    from bufferlog.frontend.printer import print_module

    name, text = read_input(args.file)
    m = bufferize(parse(text, name), args.strategy, not args.no_dealloc, args.layout, args.engine,
                  rules_dir=args.rules)
    write_output(args.output, print_module(m))
    return 0
