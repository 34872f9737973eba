"""``bufferlog dealloc FILE|- [-o OUT] [--emit memref-dealloc|bufferization-dealloc]
[--rules DIR] [--stats]``: insert buffer deallocations into memref IR (ownership-based,
derived by rules/dealloc.dl)."""

from __future__ import annotations

import sys

from bufferlog.commands import add_io, read_input, write_output


def register(sub) -> None:
    p = sub.add_parser("dealloc", help="insert deallocations into memref IR (ownership-based)")
    add_io(p)
    p.add_argument("--emit", choices=["memref-dealloc", "bufferization-dealloc"],
                   default="memref-dealloc",
                   help="memref.dealloc / scf.if-guarded deallocs (default), or "
                        "bufferization.dealloc ops for mlir-opt's lowering")
    p.add_argument("--engine", choices=["auto", "souffle", "embedded"], default="auto",
                   help="Datalog engine")
    p.add_argument("--rules", metavar="DIR",
                   help="extra/overriding rule files (e.g. mem_* facts of your own ops)")
    p.add_argument("--stats", action="store_true",
                   help="print dealloc statistics on stderr, and why each run-time check is kept")
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.backend.dealloc import deallocate
    from bufferlog.frontend.parser import parse
    from bufferlog.frontend.printer import print_module

    name, text = read_input(args.file)
    m = parse(text, name)
    st = deallocate(m, args.emit, args.engine, args.rules)
    write_output(args.output, print_module(m))
    if args.stats:
        print("\n".join([st.summary(), *st.reasons]), file=sys.stderr)
    return 0
