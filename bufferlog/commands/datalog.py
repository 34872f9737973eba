"""``bufferlog datalog run|explain``: generic engine access to any Soufflé-subset program,
with Soufflé's flags and their meanings: ``-F`` facts directory (default ``.``; every
``.input`` relation needs its ``<rel>.facts``, empty for none), ``-D`` output directory
(``-D -``: stdout, in Soufflé's layout), ``-I`` include directories (``#include
"schema.dl"`` finds the shipped schema).

    bufferlog datalog run PROGRAM.dl [-F DIR] [-D OUT|-] [-I DIR]... [--engine E] [--timeout S]
    bufferlog datalog explain PROGRAM.dl -F DIR 'rel("a",1)' [--why-not]
                              [--format json|text] [--depth N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bufferlog.commands import COMMANDS
from bufferlog.core import UserError
from bufferlog.engine.run import ENGINES


def _common(q: argparse.ArgumentParser) -> None:
    q.add_argument("program", metavar="PROGRAM.dl")
    q.add_argument("-F", "--facts", metavar="DIR", default=".",
                   help="directory of <rel>.facts TSV files (one per .input relation; "
                        "default: the current directory, as Soufflé)")
    q.add_argument("-I", "--include-dir", action="append", default=[], metavar="DIR",
                   help="where #include looks after the including file's directory "
                        "(repeatable; the shipped rules come last)")
    q.add_argument("--rules", metavar="DIR", help="rule files that add to or override PROGRAM's")
    q.add_argument("--engine", choices=ENGINES, default="auto")
    q.add_argument("--timeout", type=float, metavar="S", help="give up after S seconds")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("datalog", help=COMMANDS["datalog"])
    ds = p.add_subparsers(dest="datalog_command", metavar="ACTION")
    ds.required = True
    r = ds.add_parser("run", help="evaluate; print or write (-D) the output relations")
    _common(r)
    r.add_argument("-D", "--output-dir", metavar="OUT",
                   help="write <rel>.csv files here; '-': print every output relation on "
                        "stdout as Soufflé's -D - does")
    r.add_argument("-j", "--jobs", type=int, default=1, help="threads (souffle)")
    r.add_argument("--compiled", action="store_true", help="souffle: compiled, cached binary")
    r.set_defaults(func=_run)
    e = ds.add_parser("explain", help="proof tree of a tuple, or why it is not derived")
    _common(e)
    e.add_argument("tuple", metavar="TUPLE", help="e.g. 'path(\"a\",\"c\")'")
    e.add_argument("--why-not", action="store_true", help="explain a missing tuple")
    e.add_argument("--format", choices=("text", "json"), default="text")
    e.add_argument("--depth", type=int, default=4, help="proof depth before cutting (default 4)")
    e.set_defaults(func=_explain)


def _run(args: argparse.Namespace) -> int:
    from bufferlog.engine import Program, run
    from bufferlog.engine.facts_io import write_table

    prog = Program.load(args.program, args.rules, args.include_dir)
    res = run(prog, args.facts, engine=args.engine, timeout=args.timeout, jobs=args.jobs,
              compiled=args.compiled)
    if args.output_dir == "-":
        sys.stdout.write(souffle_stdout(res.relations.items()))
    elif args.output_dir:
        out = Path(args.output_dir)
        try:
            out.mkdir(parents=True, exist_ok=True)
            for rel, rows in res.relations.items():
                write_table(out / f"{rel}.csv", rel, sorted(rows))
        except OSError as e:
            raise UserError(f"cannot write to -D {out}: {e.strerror or e}") from None
    else:
        for rel, rows in res.relations.items():
            print(f"{rel}: {len(rows)} tuple(s)")
            for row in sorted(rows):
                print("  " + "\t".join(str(v) for v in row))
    print(f"[{res.engine}] {res.seconds:.3f} s", file=sys.stderr)
    return 0


def souffle_stdout(relations) -> str:
    """Relations as Soufflé prints them with ``-D -``: for each, a dashed line, its name,
    a line of ``=``, its tuples as tab-separated lines, and a closing line of ``=``."""
    out = []
    for rel, rows in relations:
        out.append(f"---------------\n{rel}\n===============\n")
        out += ["\t".join(str(v) for v in row) + "\n" for row in sorted(rows)]
        out.append("===============\n")
    return "".join(out)


def _explain(args: argparse.Namespace) -> int:
    from bufferlog.engine import Program, explain, render_text, why_not

    prog = Program.load(args.program, args.rules, args.include_dir)
    if args.why_not:
        res = why_not(prog, args.facts, args.tuple, engine=args.engine, timeout=args.timeout)
    else:
        res = explain(prog, args.facts, args.tuple, depth=args.depth, engine=args.engine,
                      timeout=args.timeout)
    if args.format == "json":
        print(json.dumps(res, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(render_text(res))
    return 0
