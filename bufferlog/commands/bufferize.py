"""``bufferlog bufferize [FILE|-] [-o OUT] [--strategy oneshot|optimal] [--no-dealloc]
[--function-boundary-type-conversion identity-layout-map|fully-dynamic-layout-map|infer-layout-map]``:
rewrite tensor IR into memref IR from the in-place decisions, then insert deallocations."""

from __future__ import annotations

import sys

from bufferlog.commands import (
    COMMANDS,
    add_check_output,
    add_engine,
    add_io,
    add_rules,
    run_on_input,
)
from bufferlog.commands.analyze import (
    add_oneshot_options,
    add_split,
    add_stats,
    oneshot_options,
    print_stats,
)


def register(sub) -> None:
    p = sub.add_parser("bufferize", help=COMMANDS["bufferize"])
    add_io(p)
    p.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="oneshot: mlir-opt's greedy decisions (default); optimal: fewest copied bytes")
    p.add_argument("--no-dealloc", action="store_true", help="do not insert deallocations")
    p.add_argument("--function-boundary-type-conversion", dest="layout",
                   choices=("identity-layout-map", "fully-dynamic-layout-map",
                            "infer-layout-map"),
                   default=None,
                   help="memref layout of tensor function arguments and results "
                        "(default: identity-layout-map; infer-layout-map, mlir-opt's "
                        "default: fully dynamic arguments, results of the returned "
                        "buffers' types, so a returned slice is not copied)")
    add_plan_options(p)
    add_engine(p)
    add_rules(p)
    add_stats(p)
    add_split(p)
    add_oneshot_options(p)
    add_check_output(p)
    p.set_defaults(func=run)


def add_plan_options(p) -> None:
    """The memory planning stages (docs/memory-planning.md)."""
    g = p.add_argument_group("memory planning (docs/memory-planning.md)")
    g.add_argument("--no-fold", dest="fold", action="store_false",
                   help="keep copies of a buffer onto itself and scf.if on constants")
    g.add_argument("--no-free-at-last-use", dest="free_at_last_use", action="store_false",
                   help="free buffers at block ends, as mlir-opt does, not after their last use")
    g.add_argument("--no-reuse", dest="reuse", action="store_false",
                   help="give every allocation its own buffer (no reuse of a dead buffer "
                        "of the same type)")
    g.add_argument("--hoist-to-dominator", action="store_true",
                   help="an allocation made in both branches of an scf.if is made once, "
                        "before it (as mlir-opt's --buffer-hoisting, where the peak cannot grow)")
    g.add_argument("--hoist-out-of-loops", action="store_true",
                   help="allocate buffers that die within one loop iteration once, before "
                        "the loop (as mlir-opt's --buffer-loop-hoisting)")
    g.add_argument("--promote-buffers-to-stack", action="store_true",
                   help="small buffers that do not escape and run once per call become "
                        "memref.alloca (as mlir-opt's pass of that name)")
    g.add_argument("--max-alloc-size-in-bytes", type=int, default=1024, metavar="N",
                   help="largest buffer promoted to the stack (mlir-opt's "
                        "promote-buffers-to-stack option; default 1024)")
    g.add_argument("--out-params", action="store_true",
                   help="a private function's result that is always a fresh buffer becomes "
                        "an argument its callers allocate (public functions keep their ABI)")
    g.add_argument("--drop-equivalent-buffer-results", nargs="?", const="private",
                   default="none", choices=("private", "all"), dest="drop_equivalent_results",
                   metavar="=all",
                   help="drop a function result that is one of its arguments' buffers: "
                        "from private functions (mlir-opt's pass of that name), or with =all "
                        "from public ones too, which changes their signature (default: keep "
                        "every result, as mlir-opt's One-Shot Bufferize)")
    g.add_argument("--plan", choices=("default", "none", "all"), default="default",
                   help="none: no stage (mlir-opt's placement); all: every stage")


def plan_options(args):
    from bufferlog.backend.plan import PlanOptions
    from bufferlog.core.records import replace

    if args.plan == "none":
        return replace(PlanOptions.off(), drop_equivalent_results=args.drop_equivalent_results)
    opts = PlanOptions(**{k: getattr(args, k) for k in PlanOptions._fields})
    if args.plan == "all":
        opts = replace(opts, hoist_to_dominator=True, hoist_out_of_loops=True,
                       promote_buffers_to_stack=True, out_params=True,
                       drop_equivalent_results="all" if args.drop_equivalent_results == "all"
                       else "private")
    return opts


def run(args) -> int:
    from bufferlog.api import bufferize, figures_row, parse

    def work(text: str, name: str) -> str:
        opts = oneshot_options(args)
        if opts.test_analysis_only:  # mlir-opt's meaning: annotate, do not rewrite
            from bufferlog.api import analyze

            return analyze(parse(text, name), strategy=args.strategy, engine=args.engine,
                           rules=args.rules, options=opts, split_ops=args.split_ops
                           ).annotated(args.mlir_print_debuginfo, args.generic)
        layout = args.layout
        if layout is None:
            layout = opts.function_boundary_type_conversion
        b = bufferize(parse(text, name), strategy=args.strategy, dealloc=not args.no_dealloc,
                      layout=layout, engine=args.engine, rules=args.rules, options=opts,
                      plan=plan_options(args), split_ops=args.split_ops,
                      check_output=args.check_output)
        if b.fallback:
            print(f"{name}: warning: --strategy optimal: {b.fallback}; the output is made "
                  "from oneshot's decisions instead", file=sys.stderr)
        if args.stats:
            from bufferlog.core.records import asdict

            print_stats({**figures_row(b.analysis, b), **asdict(b.plan)})
        return b.print(args.mlir_print_debuginfo, args.generic)

    return run_on_input(args, work)
