"""``bufferlog explain FILE --op <line|%name>``: why each tensor operand of an op is in
place or not. Out of place: the conflict that making it in place would cause — the
definition, the conflicting write and the read (each with file:line:col and op text),
or the read-only buffer it would write. In place: that the analysis found no such
conflict when it decided it (and how many reads/writes of its alias set it checked)."""

from __future__ import annotations

import json

from bufferlog.commands import read_input
from bufferlog.commands.analyze import add_analysis_options
from bufferlog.errors import UserError


def register(sub) -> None:
    p = sub.add_parser("explain", help="explain the in-place decision of an op's operands")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--op", required=True, help="source line number or result name (%%x)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_analysis_options(p)
    p.set_defaults(func=run)


def _where(an, facts, o):
    f, ln, c = an.loc.get(o, ("-", 0, 0))
    text = dict((k, t) for k, t in facts.rows["op_text"]).get(o, an.name[o])
    return {"loc": f"{f}:{ln}:{c}", "op": an.name[o], "text": text}


def _value(an, facts, v):
    if v in an.result_of:
        o, i = an.result_of[v]
        return {"value": f"result {i}", **_where(an, facts, o)}
    b, i = an.bbarg_of[v]
    return {"value": f"bbArg {i}", **_where(an, facts, an.region_parent[an.block_region[b]])}


def explain(facts, an, dec, target: str) -> dict:
    names = {n: v for v, n in facts.rows["value_name"]}
    if target.startswith("%"):
        v = names.get(target[1:])
        if v is None or v not in an.result_of:
            raise UserError(f"no op defines {target}")
        ops = [an.result_of[v][0]]
    else:
        try:
            line = int(target)
        except ValueError:
            raise UserError(f"--op takes a line number or %name, got '{target}'") from None
        ops = [o for o, (_, ln, _) in an.loc.items() if ln == line and o in an.op_tuses]
        if not ops:
            raise UserError(f"no op with tensor operands on line {line}")
    out = []
    for o in ops:
        entry = {**_where(an, facts, o), "operands": []}
        for i in an.op_tuses[o]:
            u = (o, i)
            ip = dec.inplace.get(u, True)
            item = {"operand": i, "inplace": ip}
            c = dec.conflicts.get(u)
            if not ip and c is not None and c.kind == "raw":
                item["reason"] = "read-after-write conflict"
                item["definition"] = _value(an, facts, c.definition)
                item["conflicting_write"] = {"operand": c.write[1], **_where(an, facts, c.write[0])}
                item["read"] = {"operand": c.read[1], **_where(an, facts, c.read[0])}
            elif not ip and c is not None:
                item["reason"] = "would write into a read-only buffer"
                item["read_only"] = _value(an, facts, c.definition)
            elif not ip:
                item["reason"] = "out of place by the chosen strategy"
            elif u in an.must:
                item["reason"] = "must bufferize in place (terminator operand)"
            else:
                item["reason"] = ("no definition/conflicting-write/read triple: every read of the "
                                  "alias set happens before the write, reads the same use, is in a "
                                  "mutually exclusive region, or reads a non-conflicting subset")
            entry["operands"].append(item)
        out.append(entry)
    return {"ops": out}


def render(res: dict) -> str:
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
    return "\n".join(lines) + "\n"


def run(args) -> int:
    from bufferlog.engine.oneshot import analyze_module
    from bufferlog.frontend.parser import parse

    name, text = read_input(args.file)
    facts, an, dec = analyze_module(parse(text, name), args.strategy, args.engine, args.rules)
    res = explain(facts, an, dec, args.op)
    print(json.dumps(res, indent=2) if args.format == "json" else render(res), end="")
    return 0
