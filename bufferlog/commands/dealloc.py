"""``bufferlog dealloc [FILE|-] [-o OUT] [--emit memref-dealloc|bufferization-dealloc]
[--rules DIR] [--stats]``: insert buffer deallocations into memref IR (ownership-based,
derived by rules)."""

from __future__ import annotations

import sys

from bufferlog.commands import COMMANDS, add_check_output, add_engine, add_io, run_on_input
from bufferlog.commands.analyze import print_stats
from bufferlog.core.records import asdict, fields


def register(sub) -> None:
    p = sub.add_parser("dealloc", help=COMMANDS["dealloc"])
    add_io(p)
    p.add_argument("--emit", choices=["memref-dealloc", "bufferization-dealloc"],
                   default="memref-dealloc",
                   help="memref.dealloc / scf.if-guarded deallocs (default), or "
                        "bufferization.dealloc ops for mlir-opt's lowering")
    add_engine(p)
    p.add_argument("--rules", metavar="DIR",
                   help="extra/overriding rule files (e.g. mem_* facts of your own ops)")
    p.add_argument("--stats", action="store_true",
                   help="print what was inserted, the output figures, and why each run-time "
                        "check or guarded free is kept, on stderr")
    add_check_output(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import deallocate, parse

    def work(text: str, name: str) -> str:
        d = deallocate(parse(text, name), emit=args.emit, engine=args.engine, rules=args.rules,
                       check_output=args.check_output)
        if args.stats:
            stats = {f.name: getattr(d.stats, f.name) for f in fields(d.stats)
                     if f.name not in ("reasons", "notes")}  # notes: explain --alloc
            reasons = d.stats.reasons
            print_stats({**stats, **asdict(d.figures)})
            for r in reasons:
                print(r, file=sys.stderr)
        return d.print(args.mlir_print_debuginfo, args.generic)

    return run_on_input(args, work)
