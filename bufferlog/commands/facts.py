"""``bufferlog facts FILE -o DIR``: export the input facts of rules/schema.dl as TSV."""

from __future__ import annotations

import sys
from pathlib import Path

from bufferlog.commands import read_input
from bufferlog.core import UserError


def register(sub) -> None:
    p = sub.add_parser("facts", help="export input facts (one <rel>.facts TSV per schema relation)")
    p.add_argument("file", metavar="FILE", help="input .mlir file, or - for stdin")
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="output directory")
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.frontend.facts import export
    from bufferlog.frontend.parser import parse

    name, text = read_input(args.file)
    facts = export(parse(text, name))
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise UserError(f"output is not a directory: {out}")
    paths = facts.write_tsv(out)
    total = sum(len(r) for r in facts.rows.values())
    print(f"wrote {len(paths)} relations, {total} facts to {out}", file=sys.stderr)
    return 0
