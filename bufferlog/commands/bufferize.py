"""``bufferlog bufferize FILE|- [-o OUT] [--strategy oneshot|optimal] [--no-dealloc]
[--function-boundary-type-conversion identity-layout-map|fully-dynamic-layout-map]``:
rewrite tensor IR into memref IR from the in-place decisions, then insert deallocations."""

from __future__ import annotations

from bufferlog.commands import add_engine, add_io, add_rules, run_on_input
from bufferlog.commands.analyze import add_oneshot_options, add_stats, oneshot_options, print_stats


def register(sub) -> None:
    p = sub.add_parser("bufferize", help="tensor IR -> memref IR (in-place analysis + dealloc)")
    add_io(p)
    p.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="oneshot: mlir-opt's greedy decisions (default); optimal: fewest copied bytes")
    p.add_argument("--no-dealloc", action="store_true", help="do not insert deallocations")
    p.add_argument("--function-boundary-type-conversion", dest="layout",
                   choices=("identity-layout-map", "fully-dynamic-layout-map"),
                   default=None,
                   help="memref layout of tensor function arguments and results "
                        "(default: identity-layout-map)")
    add_engine(p)
    add_rules(p)
    add_stats(p)
    add_oneshot_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import bufferize, figures_row, parse

    def work(text: str, name: str) -> str:
        opts = oneshot_options(args)
        if opts.test_analysis_only:
            from bufferlog.core import UserError

            raise UserError("--one-shot-bufferize: test-analysis-only: use `bufferlog analyze`")
        layout = args.layout
        if layout is None:
            layout = opts.function_boundary_type_conversion
        b = bufferize(parse(text, name), strategy=args.strategy, dealloc=not args.no_dealloc,
                      layout=layout, engine=args.engine, rules=args.rules, options=opts)
        if args.stats:
            print_stats(figures_row(b.analysis, b))
        return b.print(args.mlir_print_debuginfo)

    return run_on_input(args, work)
