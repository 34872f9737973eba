"""``bufferlog rules check|list [--rules DIR] [PROGRAM.dl]``: static checks of the rules
before any run, and the relations with their ``/** doc */`` comments."""

from __future__ import annotations

import argparse
import sys

from bufferlog.commands import COMMANDS
from bufferlog.core import UserError
from bufferlog.core.source import caret_lines
from bufferlog.engine.program import SHIPPED_RULES, Program


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help=COMMANDS["rules"])
    rs = p.add_subparsers(dest="rules_command", metavar="ACTION")
    rs.required = True
    for name, fn, hlp in (("check", _check, "report errors with file:line:col"),
                          ("list", _list, "list relations with their doc comments")):
        q = rs.add_parser(name, help=hlp)
        q.add_argument("program", nargs="?", metavar="PROGRAM.dl",
                       help="main rules file (default: the shipped rules)")
        q.add_argument("--rules", metavar="DIR",
                       help="rule files that add to or override the shipped ones")
        if name == "check":
            q.add_argument("--input", action="append", default=[], metavar="FILE.mlir",
                           help="an MLIR file the rules are for (repeatable): an op a fact of "
                                "yours names must be one of its ops or one bufferlog knows")
        q.set_defaults(func=fn)


def _load(args: argparse.Namespace) -> Program:
    if args.program:
        return Program.load(args.program, args.rules)
    return Program.shipped(args.rules)


def _check(args: argparse.Namespace) -> int:
    prog = _load(args)
    if not prog.files and not prog.errors:
        where = args.program or SHIPPED_RULES
        raise UserError(f"no rule files found (looked in {where})")
    from bufferlog.engine.check import check

    diags = check(prog, args.input)
    for d in diags:
        print("\n".join([str(d), *caret_lines(d.loc, {})]), file=sys.stderr)
    errors = sum(d.severity == "error" for d in diags)
    warnings = len(diags) - errors
    if errors:
        print(f"{errors} error(s)" + (f", {warnings} warning(s)" if warnings else ""), file=sys.stderr)
        return 1
    print(f"ok: {len(prog.files)} file(s), {len(prog.decls)} relation(s), "
          f"{sum(not r.is_fact for r in prog.rules)} rule(s)")
    return 0


def _list(args: argparse.Namespace) -> int:
    prog = _load(args)
    inputs, outputs = set(prog.inputs), set(prog.outputs)
    for d in sorted(prog.decls.values(), key=lambda d: d.name):
        kind = "input" if d.name in inputs else "output" if d.name in outputs else "derived"
        sig = ", ".join(f"{a}: {t}" for a, t in d.attrs)
        print(f"{d.name}({sig})  [{kind}]  {d.loc}")
        for line in d.doc.splitlines():
            print(f"    {line}")
    return 0
