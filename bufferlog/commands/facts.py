"""``bufferlog facts [FILE|-] -o DIR|-``: export the input facts of rules/schema.dl as TSV,
one ``<relation>.facts`` per relation in DIR, or with ``-o -`` on stdout in Soufflé's
``-D -`` layout (commands/datalog.py ``souffle_stdout``). With ``--split-input-file``,
chunk N's facts go to ``DIR/N`` (numbered from 1; on stdout, the chunks are separated by
``// -----`` lines)."""

from __future__ import annotations

import sys
from pathlib import Path

from bufferlog.commands import COMMANDS, add_file, chunks, join_outputs, read_input, run_chunks
from bufferlog.core import UserError


def register(sub) -> None:
    p = sub.add_parser("facts", help=COMMANDS["facts"])
    add_file(p)
    p.add_argument("-o", "--output", metavar="DIR", required=True,
                   help="output directory, or - for stdout")
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import parse
    from bufferlog.frontend.facts import export

    name, text = read_input(args.file)
    split = len(chunks(args, text)) > 1
    count = iter(range(1, 1 << 30))

    def work(chunk_text: str, name: str) -> str:
        n = next(count)
        facts = export(parse(chunk_text, name))
        if args.output == "-":
            from bufferlog.commands.datalog import souffle_stdout

            return souffle_stdout(facts.rows.items())
        out = Path(args.output) / str(n) if split else Path(args.output)
        if out.exists() and not out.is_dir():
            raise UserError(f"output is not a directory: {out}")
        try:
            paths = facts.write_tsv(out)
        except OSError as e:
            raise UserError(f"cannot write facts to {out}: {e.strerror or e}") from None
        total = sum(len(r) for r in facts.rows.values())
        print(f"wrote {len(paths)} relations, {total} facts to {out}", file=sys.stderr)
        return ""

    outputs, code = run_chunks(args, name, text, work)
    if args.output == "-":
        sys.stdout.write(join_outputs(outputs) if split else (outputs[0] or ""))
    return code
