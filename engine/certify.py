"""The certificate (DESIGN §2 step 3): the last run of rules/analysis.dl re-derives the
analysis with every decision as a fact; its certificate relations
(rules/analysis/certificate.dl) must be empty. A tuple there means the decision
procedure accepted what the rules forbid: a bufferlog bug, reported as an internal
error that names it, never as IR."""

from __future__ import annotations

from bufferlog.core import CertificateError


def _use(view, o: int, i: int) -> str:
    return f"operand #{i} of '{view.name.get(o, '?')}' at {view.loc_text(o)}"


def _value(view, v: int) -> str:
    o = view.owner(v)
    return f"value {v} (of '{view.name.get(o, '?')}' at {view.loc_text(o)})"


def problems(view, rel) -> list[str]:
    """The violations the certificate run found (``rel``: its AnalysisOutputs)."""
    out = []
    for o, i in sorted(rel.forced_violated):
        out.append(f"forced decision not kept: {_use(view, o, i)}")
    for a, b in sorted(rel.alias_split):
        out.append(f"alias sets split: {_value(view, a)} and {_value(view, b)} share a buffer")
    for ro, ri, wo, wi, d in sorted(rel.conflict):
        out.append(f"read-after-write conflict: read {_use(view, ro, ri)} sees {_value(view, d)} "
                   f"after the in-place write {_use(view, wo, wi)}")
    for o, i, v in sorted(rel.nonwritable_written):
        out.append(f"write into a read-only buffer: {_use(view, o, i)} writes {_value(view, v)}")
    for wo, wi, d in sorted(rel.parallel_conflict):
        out.append(f"parallel race: {_use(view, wo, wi)} writes {_value(view, d)} defined "
                   "outside its parallel region, and the buffer is read")
    for o, what in sorted(rel.scoped_call_differs):
        out.append(f"call summary differs: the run scoped to the caller derived another "
                   f"{what} for '{view.name.get(o, '?')}' at {view.loc_text(o)}")
    return out


def certify(view, rel) -> None:
    found = problems(view, rel)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise CertificateError(f"the rules reject the decisions: {found[0]}{more}")
