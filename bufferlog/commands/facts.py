"""``bufferlog facts FILE -o DIR``: export the input facts of rules/schema.dl as TSV."""

from __future__ import annotations

import sys
from pathlib import Path

from bufferlog.commands import COMMANDS, add_common, read_input
from bufferlog.core import UserError


def register(sub) -> None:
    p = sub.add_parser("facts", help=COMMANDS["facts"])
    p.add_argument("file", metavar="FILE", help="input .mlir file, or - for stdin")
    p.add_argument("-o", "--output", metavar="DIR", required=True, help="output directory")
    add_common(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import parse
    from bufferlog.frontend.facts import export

    name, text = read_input(args.file)
    facts = export(parse(text, name))
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise UserError(f"output is not a directory: {out}")
    try:
        paths = facts.write_tsv(out)
    except OSError as e:
        raise UserError(f"cannot write facts to {out}: {e.strerror or e}") from None
    total = sum(len(r) for r in facts.rows.values())
    print(f"wrote {len(paths)} relations, {total} facts to {out}", file=sys.stderr)
    return 0
