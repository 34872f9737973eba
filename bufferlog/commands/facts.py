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
    p.add_argument("--with-decisions", action="store_true",
                   help="also the analysis' decisions and what rules/explain.dl reads besides "
                        "the input facts: `datalog explain` on explain.dl expands explain's proofs")
    p.add_argument("--rules", metavar="DIR", help="with --with-decisions: rule files adding to "
                                                  "or replacing the shipped ones")
    p.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="with --with-decisions: whose decisions")
    add_common(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from bufferlog.api import parse
    from bufferlog.frontend.facts import export

    name, text = read_input(args.file)
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise UserError(f"output is not a directory: {out}")
    if args.with_decisions:
        return _with_decisions(args, parse(text, name), out)
    facts = export(parse(text, name))
    try:
        paths = facts.write_tsv(out)
    except OSError as e:
        raise UserError(f"cannot write facts to {out}: {e.strerror or e}") from None
    total = sum(len(r) for r in facts.rows.values())
    print(f"wrote {len(paths)} relations, {total} facts to {out}", file=sys.stderr)
    return 0


def _with_decisions(args, module, out: Path) -> int:
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
    return 0
