"""Why each tensor operand of an op is in place or not, from the rules (rules/explain.dl:
the analysis with every decision as a fact, the very RaW triples the decision procedure
used) and the engine's provenance.

Out of place: the conflict that making it in place would cause — a
``conflict_if_inplace`` tuple (definition, conflicting write and read, each with
file:line:col and its source line) or a ``nonwritable_if_inplace`` tuple (the read-only
buffer it would write) — with the engine's proof tree of that tuple. In place: the
engine's why-not of ``would_conflict(op, i)`` and, for the read/write pairs of its alias
set, why-not of the ``conflict`` tuple with the proof of the exemption that holds."""

from __future__ import annotations

from bufferlog.core import UserError

MAX_PAIRS = 2  # in-place operands: read/write pairs explained (each costs engine runs)


def model_inputs(facts, an, rules_dir=None):
    """rules/explain.dl and its facts for a finished analysis: the module's facts, every
    function decided, and the Z3 oracle facts the analysis used."""
    from bufferlog.engine.decisions import decision_facts
    from bufferlog.engine.interface import load

    funcs = sorted(f for f, decl in an.funcs.values() if not decl)
    dl_facts = {**facts.rows, **decision_facts(an.greedy, funcs, funcs),
                **{k: sorted(v) for k, v in an.oracle.items()}}
    return load("explain.dl", rules_dir), dl_facts


class Context:
    """Facts, analysis, decisions and the rules' model of one module."""

    def __init__(self, facts, an, dec, engine: str = "auto", rules_dir=None, depth: int = 4):
        from bufferlog.engine.interface import outputs
        from bufferlog.engine.run import run

        self.facts, self.an, self.dec = facts, an, dec
        self.engine, self.depth = engine, depth
        self.prog, self.dl_facts = model_inputs(facts, an, rules_dir)
        res = run(self.prog, self.dl_facts, engine=engine, relations=outputs("explain.dl"))
        self.rel, self.engine_used = res.relations, res.engine
        self.text = dict(facts.rows["op_text"])

    def where(self, o: int) -> dict:
        f, ln, c = self.an.loc.get(o, ("-", 0, 0))
        return {"loc": f"{f}:{ln}:{c}", "op": self.an.name[o],
                "text": self.text.get(o, self.an.name[o])}

    def value(self, v: int) -> dict:
        an = self.an
        if v in an.result_of:
            o, i = an.result_of[v]
            return {"value": f"result {i}", **self.where(o)}
        b, i = an.bbarg_of[v]
        return {"value": f"bbArg {i}", **self.where(an.region_parent[an.block_region[b]])}

    def explain(self, query: str) -> dict:
        from bufferlog.engine import explain

        return explain(self.prog, self.dl_facts, query, depth=self.depth, engine=self.engine)

    def why_not(self, query: str) -> dict:
        from bufferlog.engine import why_not

        return why_not(self.prog, self.dl_facts, query, engine=self.engine)


def _tuple(rel: str, *vals) -> str:
    from bufferlog.engine import format_tuple

    return format_tuple(rel, tuple(vals))


def _pick(cands: list[tuple], preferred) -> tuple:
    for t in cands:
        if preferred(t):
            return t
    return cands[0]


def _out_of_place(ctx: Context, u: tuple[int, int], item: dict) -> None:
    o, i = u
    raws = sorted(t[2:] for t in ctx.rel["conflict_if_inplace"] if t[:2] == u)
    ro_ = sorted(t[2] for t in ctx.rel["nonwritable_if_inplace"] if t[:2] == u)
    c = ctx.dec.conflicts.get(u)
    if raws:
        # several triples: prefer the one the decision procedure met (mlir-opt's C_n tags)
        want = (c.read + c.write + (c.definition,)) if c is not None and c.kind == "raw" else None
        ro, ri, wo, wi, d = _pick(raws, lambda t: t == want)
        item["reason"] = "read-after-write conflict if in place"
        item["definition"] = ctx.value(d)
        item["conflicting_write"] = {"operand": wi, **ctx.where(wo)}
        item["read"] = {"operand": ri, **ctx.where(ro)}
        item["query"] = _tuple("conflict_if_inplace", o, i, ro, ri, wo, wi, d)
        item["other_conflicts"] = len(raws) - 1
    elif ro_:
        v = _pick(ro_, lambda x: c is not None and x == c.definition)
        item["reason"] = "would write into a read-only buffer if in place"
        item["read_only"] = ctx.value(v)
        item["query"] = _tuple("nonwritable_if_inplace", o, i, v)
    elif any(t[:2] == u for t in ctx.rel.get("parallel_if_inplace", ())):
        _, _, wo, wi, d = min(t for t in ctx.rel["parallel_if_inplace"] if t[:2] == u)
        item["reason"] = ("parallel-region conflict if in place: a write inside an scf.forall body "
                          "into a buffer defined outside it, which is read")
        item["definition"] = ctx.value(d)
        item["conflicting_write"] = {"operand": wi, **ctx.where(wo)}
        item["query"] = _tuple("parallel_if_inplace", o, i, wo, wi, d)
    elif u in ctx.rel["copy_forced"]:
        item["reason"] = "forced out of place by a must_copy rule"
        item["query"] = _tuple("copy_forced", o, i)
    else:
        item["reason"] = "out of place by the chosen strategy (in place would not conflict)"
        item["why_not"] = [ctx.why_not(_tuple("would_conflict", o, i))]
        return
    item["proof"] = ctx.explain(item["query"])


def _in_place(ctx: Context, u: tuple[int, int], item: dict) -> None:
    o, i = u
    an = ctx.an
    if u in an.must:
        item["reason"] = "must bufferize in place (terminator operand); no conflict in its alias set"
    else:
        item["reason"] = "no conflict in its alias set"
    item["why_not"] = [ctx.why_not(_tuple("would_conflict", o, i))]
    cls = dict(ctx.rel["al_class"])
    c = cls.get(an.tuse[u])
    pairs = sorted(p for p in ctx.rel["cleared"]
                   if cls.get(an.tuse[(p[0], p[1])]) == c or cls.get(an.tuse[(p[2], p[3])]) == c)
    pairs.sort(key=lambda p: (p[2:4] != u and p[:2] != u, p))  # pairs with this use first
    item["pairs_checked"] = len(pairs)
    item["pairs"] = []
    for ro, ri, wo, wi, d in pairs[:MAX_PAIRS]:
        q = _tuple("conflict", ro, ri, wo, wi, d)
        entry = {"read": {"operand": ri, **ctx.where(ro)},
                 "write": {"operand": wi, **ctx.where(wo)},
                 "definition": ctx.value(d), "why_not": ctx.why_not(q)}
        if (ro, ri, wo, wi, d) in ctx.rel["exempt"]:  # which rule clears it: the proof says
            entry["exemption"] = ctx.explain(_tuple("exempt", ro, ri, wo, wi, d))
        item["pairs"].append(entry)


def select_ops(ctx: Context, target: str) -> list[int]:
    an, facts = ctx.an, ctx.facts
    file = next(iter(an.loc.values()), ("-",))[0]
    if target.startswith("%"):
        names = {n: v for v, n in facts.rows["value_name"]}
        v = names.get(target[1:])
        if v is not None and v in an.result_of:
            return [an.result_of[v][0]]
        lines = getattr(facts, "source_lines", None) or ctx.source_lines
        for ln, line in enumerate(lines, 1):
            col = line.find(target)
            if col >= 0 and not line[col + len(target):col + len(target) + 1].isalnum():
                what = "a block argument" if v is not None else "not an op result"
                raise UserError(f"{target} is {what}: --op takes an op result or a line", f"{file}:{ln}:{col + 1}")
        raise UserError(f"no value named {target}", f"{file}:1:1")
    try:
        line = int(target)
    except ValueError:
        raise UserError(f"--op takes a line number or %name, got '{target}'") from None
    ops = [o for o, (_, ln, _) in an.loc.items() if ln == line and o in an.op_tuses
           and o not in an.func_ops]
    if not ops:
        raise UserError(f"no op with tensor operands on line {line}", f"{file}:{line}:1")
    return sorted(ops)


def explain_ops(ctx: Context, target: str) -> dict:
    out = []
    for o in select_ops(ctx, target):
        entry = {**ctx.where(o), "operands": []}
        for i in ctx.an.op_tuses[o]:
            u = (o, i)
            ip = ctx.dec.inplace.get(u, True)
            item: dict = {"operand": i, "inplace": ip}
            (_in_place if ip else _out_of_place)(ctx, u, item)
            entry["operands"].append(item)
        out.append(entry)
    return {"engine": ctx.engine_used, "conflicts": len(ctx.rel["conflict"]), "ops": out}


def explain(facts, an, dec, target: str, engine: str = "auto", rules_dir=None, depth: int = 4,
            source_lines: list[str] | None = None) -> dict:
    """The explanation of ``target``'s operands (see the module doc) as a JSON-able dict."""
    ctx = Context(facts, an, dec, engine, rules_dir, depth)
    ctx.source_lines = source_lines or []
    return explain_ops(ctx, target)


def _indent(text: str, n: int) -> list[str]:
    return [" " * n + ln for ln in text.rstrip("\n").split("\n")]


def render(res: dict) -> str:
    from bufferlog.engine import render_text

    lines = []
    for e in res["ops"]:
        lines.append(f"{e['loc']}: {e['text']}")
        for it in e["operands"]:
            state = "in place" if it["inplace"] else "OUT OF PLACE (copy)"
            lines.append(f"  operand #{it['operand']}: {state}: {it['reason']}")
            for k in ("definition", "conflicting_write", "read", "read_only"):
                if k in it:
                    x = it[k]
                    extra = x.get("value") or f"operand #{x.get('operand')}"
                    lines.append(f"    {k.replace('_', ' ')}: {x['loc']}: {extra} of {x['text']}")
            if "proof" in it:
                lines.append(f"    proof of {it['query']}:")
                lines += _indent(render_text(it["proof"]), 6)
            for w in it.get("why_not", []):
                lines.append(f"    why not {w['query']}:")
                lines += _indent(render_text(w), 6)
            if "pairs_checked" in it:
                lines.append(f"    read/write pairs in its alias set: {it['pairs_checked']}")
            for p in it.get("pairs", []):
                r, w, d = p["read"], p["write"], p["definition"]
                lines.append(f"    pair: read {r['loc']} operand #{r['operand']} ({r['op']}), "
                             f"write {w['loc']} operand #{w['operand']} ({w['op']}), "
                             f"definition {d['loc']} {d['value']}")
                lines += _indent(render_text(p["why_not"]), 6)
                if "exemption" in p:
                    lines.append("      exemption that holds:")
                    lines += _indent(render_text(p["exemption"]), 8)
    return "\n".join(lines) + "\n"
