"""The certificate of the output: ``rules/validate.dl`` run over the facts of the memref
program bufferlog wrote, with the map back to the input (backend/output_map.py).

Every relation it derives names a violation; any one is a bufferlog bug, raised as
:class:`OutputCertificateError` (an internal error: exit 2) naming the check, the output
op and the input op it stands for. What the checks rely on, and what they leave out, is
in docs/analysis.md ("The certificate of the output").
"""

from __future__ import annotations

import sys
from pathlib import Path

from bufferlog.engine.outputs import ValidateOutputs as V
from bufferlog.frontend.facts import export
from bufferlog.frontend.ir import Module, Op

from bufferlog.core import InternalError

VALIDATE_MAIN = V.PROGRAM

#: relation (its accessor's name) -> (check name, what it means); the frees checks need
#: deallocated output
CHECKS = {
    V.v_uninit_read.name: ("uninitialized-read", "reads a buffer that no write reached on some path"),
    V.v_clobber.name: ("read-after-write", "overwrites the buffer of a tensor value that is read later"),
    V.v_same_op.name: ("read-after-write", "writes, through another operand, elements it has yet to read"),
    V.v_readonly.name: ("read-only-write", "writes into a read-only buffer"),
    V.v_bad_free.name: ("bad-free", "frees a buffer nobody owns"),
    V.v_double_free.name: ("double-free", "frees a buffer a second time on some path"),
    V.v_use_after_free.name: ("use-after-free", "uses a buffer after it was freed on some path"),
    V.v_leak.name: ("leak", "leaves a buffer unfreed on some path"),
}
FREES = (V.v_bad_free.name, V.v_double_free.name, V.v_use_after_free.name, V.v_leak.name)
#: which checks run: all (bufferize), memory only (bufferize --no-dealloc: nothing is
#: freed yet), frees only (dealloc of memref input: no map to tensor values)
CHECK_SETS = {"all": tuple(CHECKS), "memory": tuple(r for r in CHECKS if r not in FREES),
              "frees": FREES}


class OutputCertificateError(InternalError):
    """The output bufferlog wrote fails a check of its certificate."""


def map_rows(facts) -> dict[str, list[tuple]]:
    """The rows of the map to the input, from the tags of the output's ops and blocks."""
    rows: dict[str, list[tuple]] = {"origin": [], "kept": [], "tv_use": [], "tv_prod": [],
                                    "tv_def": [], "tv_def_block": [], "tv_undef": [],
                                    "tv_parts": [], "tv_def_before": [], "tv_pass": [],
                                    "tv_pass_view": [], "tv_pass_view_into": []}
    for op, o in facts.op_id.items():
        src = getattr(op, "origin_id", None)
        if src is not None:
            rows["origin"].append((o, src))
            if getattr(op, "origin", None) is op:
                rows["kept"].append((o,))
        for i, tv in getattr(op, "tv_use", ()):
            rows["tv_use"].append((o, i, tv))
        for i, tv in getattr(op, "tv_prod", ()):
            rows["tv_prod"].append((o, i, tv))
        for tv in getattr(op, "tv_def", ()):
            rows["tv_def"].append((o, tv))
        for tv in getattr(op, "tv_def_before", ()):
            rows["tv_def_before"].append((o, tv))
        for i, tv in getattr(op, "tv_pass", ()):
            rows["tv_pass"].append((o, i, tv))
        for tv, view, into in getattr(op, "tv_pass_view", ()):
            e = facts.value_id.get(view)
            if e is not None:
                rows["tv_pass_view"].append((o, tv, e))
                rows["tv_pass_view_into"] += [(o, tv, u) for u in into]
        if getattr(op, "tv_undef", False):
            rows["tv_undef"].append((o,))
        if getattr(op, "tv_parts", False):
            rows["tv_parts"].append((o,))
    for blk, b in facts.block_id.items():
        for tv in getattr(blk, "tv_def", ()):
            rows["tv_def_block"].append((b, tv))
    return rows


def certify_output(module: Module, engine: str = "auto", rules_dir: str | Path | None = None,
                   checks: str = "all") -> None:
    """Check the memref program ``module`` (as bufferize or dealloc left it); raise
    :class:`OutputCertificateError` on the first violation. ``checks``: a key of
    :data:`CHECK_SETS`."""
    from bufferlog.engine.interface import load as load_checked
    from bufferlog.engine.run import run

    prog = load_checked(VALIDATE_MAIN, rules_dir, lenient=True)
    facts = export(module)
    rows = {k: v for k, v in facts.rows.items() if k in prog.inputs}
    for k, v in map_rows(facts).items():
        if k in prog.inputs:
            rows[k] = sorted(set(v))
    verify_output(module)
    wanted = list(CHECK_SETS[checks])
    derived = V(run(prog, rows, engine=engine, relations=wanted).relations)
    claims = user_no_conflict(rules_dir)
    for rel in wanted:
        found = sorted(derived.rows(rel))
        if found and claims and rel in (V.v_clobber.name, V.v_same_op.name):
            # the user's no_conflict rules hold facts about the program the rules cannot
            # see (two indices that differ): trusted, as the analysis trusted them
            print(f"warning: certificate of the output: {describe(rel, found[0], facts)}; "
                  f"not an error: your no_conflict rules ({', '.join(claims)}) are trusted",
                  file=sys.stderr)
            continue
        if found:
            hint, kept = proof_hint(rel, found[0], rows, rules_dir)
            err = OutputCertificateError(describe(rel, found[0], facts) + hint)
            err.facts_dir = kept  # the facts kept for the proof (None: none could be written)
            raise err


def user_no_conflict(rules_dir: str | Path | None) -> list[str]:
    """The rule files of ``rules_dir`` that define ``no_conflict`` (a rule whose head it
    is): claims of the user's that the certificate takes on trust."""
    import re

    if rules_dir is None:
        return []
    head = re.compile(r"^\s*no_conflict\s*\(", re.M)
    out = []
    for f in sorted(Path(rules_dir).rglob("*.dl")):
        try:
            if head.search(f.read_text(encoding="utf-8", errors="replace")):
                out.append(str(f))
        except OSError:
            continue
    return out


def proof_hint(rel: str, row: tuple, rows: dict,
               rules_dir: str | Path | None = None) -> tuple[str, Path | None]:
    """Where the facts of the failed output were kept, and the command that shows the
    rules' proof of the violation (``bufferlog datalog explain``, with the user's
    ``--rules`` folder when there is one); and that folder."""
    import tempfile

    from bufferlog.engine.facts_io import write_facts_dir

    from bufferlog.core import rules_file

    try:
        out = Path(tempfile.mkdtemp(prefix="bufferlog-output-certificate-"))
        write_facts_dir(rows, out)
    except (OSError, ValueError):
        return "", None
    query = f"{rel}({','.join(str(x) for x in row)})"
    user = f" --rules {rules_dir}" if rules_dir is not None else ""
    return (f"; its proof: bufferlog datalog explain {rules_file(VALIDATE_MAIN)} -F {out}{user} "
            f"'{query}' --depth 12"), out


def verify_output(module: Module) -> None:
    """The output is valid IR (the verifier mlir-opt's own checks follow)."""
    from bufferlog.frontend.verify import verify_module

    from bufferlog.core import UserError

    try:
        verify_module(module)
    except UserError as e:
        raise OutputCertificateError(f"certificate of the output: invalid-ir: {e.message}"
                                     f"{' at ' + str(e.loc) if e.loc else ''}") from e


def describe(rel: str, row: tuple, facts) -> str:
    """One line: the check, the output op, the input op it stands for."""
    check, what = CHECKS[rel]
    op = facts.ops[row[0]]
    return (f"certificate of the output: {check}: {_op_text(op)} {what}"
            f"{_input_text(op)} [{rel}{tuple(row)}]")


def _op_text(op: Op) -> str:
    loc = op.loc
    where = f" at {loc.file}:{loc.line}:{loc.col}" if loc.line else ""
    return f"output op '{op.name}'{where}"


def _input_text(op: Op) -> str:
    src = getattr(op, "origin", None)
    if src is None:
        cause = getattr(op, "cause", None)
        return f" (added by bufferlog{': ' + cause if cause else ''})"
    loc = src.loc
    where = f" at {loc.file}:{loc.line}:{loc.col}" if loc.line else ""
    return f" (for input op '{src.name}'{where})"
