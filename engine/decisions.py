"""Step 3 of DESIGN §2: Datalog again, with the in-place decisions as input facts.

``decision_facts(an, dec)`` exports the decisions of a finished analysis (oneshot or
optimal) as the ``inplace`` / ``out_of_place`` facts of rules/schema.dl, plus the
decision-dependent semantics the Python analysis resolved (callee summaries of
func.call operands, loop iter_arg equivalence). ``derive_decisions`` runs
rules/decisions.dl on the program facts + those: the final alias sets, the conflict
re-check (empty for a valid result) and, per out-of-place operand, the conflict that
making it in place would cause (``conflict_if_inplace``, ``nonwritable_if_inplace``).
"""

from __future__ import annotations

from bufferlog.core import rules_file

RULES = rules_file("decisions.dl")
DECISION_RELATIONS = ("inplace", "out_of_place", "call_write", "call_alias", "loop_equivalent")


def decision_facts(an, dec) -> dict[str, list[tuple]]:
    """The decisions of ``dec`` (and ``an``'s final decision-dependent state) as facts."""
    rows: dict[str, list[tuple]] = {r: [] for r in DECISION_RELATIONS}
    for (o, i) in sorted(an.tuse):
        if an.name[o] == "func.func":
            continue
        rows["inplace" if dec.inplace.get((o, i), False) else "out_of_place"].append((o, i))
    for (o, i) in sorted(an.call_writes):
        rows["call_write"].append((o, i))
    for (o, i), al in sorted(an.aliases.items()):
        if o in an.calls:
            for v, k in al:
                rows["call_alias"].append((o, i, v, k))
        elif (o, i) in an.loop_arg and an.kind((o, i), None, "loop") == "equivalent":
            rows["loop_equivalent"].append((o, i))
    return rows


def program(rules_dir=None):
    from .run import load_program

    return load_program(RULES, rules_dir)


def all_facts(rows: dict, an, dec) -> dict[str, list[tuple]]:
    """Program facts + decision facts (the input of rules/decisions.dl)."""
    out = {k: v for k, v in rows.items() if k not in DECISION_RELATIONS}
    out.update(decision_facts(an, dec))
    return out


def derive_decisions(rows: dict, an, dec, engine: str = "auto", rules_dir=None,
                     prog=None) -> dict[str, set]:
    """Output relations of rules/decisions.dl for the decisions ``dec``."""
    from .run import run

    prog = prog or program(rules_dir)
    return run(prog, all_facts(rows, an, dec), engine=engine).relations
