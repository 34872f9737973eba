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
    p.add_argument("--with-decisions", action="store_true",
                   help="also the analysis' decisions and what rules/explain.dl reads besides "
                        "the input facts: `datalog explain` on explain.dl expands explain's proofs")
    p.add_argument("--rules", metavar="DIR", help="with --with-decisions: rule files adding to "
                                                  "or replacing the shipped ones")
    p.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="with --with-decisions: whose decisions")
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import parse
    from bufferlog.frontend.facts import export

    name, text = read_input(args.file)
    if args.with_decisions and args.output == "-":
        raise UserError("--with-decisions writes a directory: give -o DIR")
    split = len(chunks(args, text)) > 1
    count = iter(range(1, 1 << 30))

    def work(chunk_text: str, name: str) -> str:
        n = next(count)
        if args.with_decisions:
            out = Path(args.output) / str(n) if split else Path(args.output)
            if out.exists() and not out.is_dir():
                raise UserError(f"output is not a directory: {out}")
            _with_decisions(args, parse(chunk_text, name), out)
            return ""
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


def _with_decisions(args, module, out: Path) -> None:
    """The facts ``explain`` runs rules/explain.dl on: the module's, the decisions
    (``inplace`` / ``out_of_place`` ...), and the Z3 answers and callee summaries the
    analysis used; one ``<rel>.facts`` per input relation of the program (empty ones too)."""
    from bufferlog.api import analyze
    from bufferlog.engine.explanation import model_inputs
    from bufferlog.engine.facts_io import write_table

    a = analyze(module, strategy=args.strategy, rules=args.rules)
    facts, an, dec = a._raw
    if a.strategy == "optimal":
        an.run(fixed=dec.inplace)  # the analysis state of the chosen decisions
    prog, rows = model_inputs(facts, an, args.rules)
    inputs = sorted({d.rel for d in prog.directives if d.kind == "input"})
    try:
        out.mkdir(parents=True, exist_ok=True)
        for rel in inputs:
            write_table(out / f"{rel}.facts", rel, sorted(rows.get(rel, ())))
    except OSError as e:
        raise UserError(f"cannot write facts to {out}: {e.strerror or e}") from None
    total = sum(len(rows.get(rel, ())) for rel in inputs)
    main = prog.files[0] if prog.files else "explain.dl"
    rules = f" --rules {args.rules}" if args.rules else ""
    print(f"wrote {len(inputs)} relations, {total} facts to {out} (input facts and decisions)\n"
          f"expand a proof node: bufferlog datalog explain {main} -F {out}{rules} 'TUPLE'",
          file=sys.stderr)
