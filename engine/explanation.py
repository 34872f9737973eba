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

import re
from pathlib import Path

from bufferlog.core import UserError

from .greedy import FORCED, NOT_WRITABLE, PARALLEL, RAW
from .outputs import AnalysisOutputs
from .outputs import ExplainOutputs as Outputs

MAX_PAIRS = 2  # in-place operands: read/write pairs explained (each costs engine runs)


def model_inputs(facts, an, rules_dir=None):
    """rules/explain.dl and its facts for a finished analysis: the module's facts, every
    function decided, and the Z3 oracle facts and callee read summaries the analysis used."""
    from bufferlog.engine.decisions import decision_facts
    from bufferlog.engine.interface import load

    funcs = sorted(f for f, decl in an.funcs.values() if not decl)
    dl_facts = {**facts.rows, **decision_facts(an.greedy, funcs, funcs),
                **{k: sorted(v) for k, v in {**an.oracle, **an.summaries}.items()}}
    # a file of the directory that only deallocation reads (mem_* facts) is left out
    return load("explain.dl", rules_dir, foreign=("dealloc.dl",)), dl_facts


class Context:
    """Facts, analysis, decisions and the rules' model of one module."""

    def __init__(self, facts, an, dec, engine: str = "auto", rules_dir=None, depth: int = 4):
        from bufferlog.engine.outputs import ExplainOutputs
        from bufferlog.engine.run import run

        self.facts, self.an, self.dec = facts, an, dec
        self.engine, self.depth = engine, depth
        self.prog, self.dl_facts = model_inputs(facts, an, rules_dir)
        res = run(self.prog, self.dl_facts, engine=engine, relations=ExplainOutputs.RELATIONS)
        self.out, self.engine_used = ExplainOutputs(res.relations), res.engine
        self.text = dict(facts.rows["op_text"])
        self._proofs: dict[tuple[str, int], dict] = {}
        self.show = Display(self)  # ids as SSA names
        shipped = _shipped_dir()
        self.user_no_conflict = any(not _under(r.loc.file, shipped)
                                    for r in self.prog.rules_for("no_conflict"))

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
        return self.explain_at(query, self.depth)

    def explain_at(self, query: str, depth: int) -> dict:
        from bufferlog.engine import explain

        key = (query, depth)
        if key not in self._proofs:
            self._proofs[key] = explain(self.prog, self.dl_facts, query, depth=depth,
                                        engine=self.engine)
        return self._proofs[key]

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


def _user_rule(ctx: Context, query: str, rel: str) -> dict | None:
    """The rule of a user's rule file that derived the ``rel`` tuple in the proof of
    ``query`` (``must_copy``, ``no_conflict``): its relation, file, line and text."""
    res = ctx.explain_at(query, 3)
    stack = [res.get("proof")] if res.get("proof") else []
    while stack:
        n = stack.pop()
        r = n.get("rule")
        if n["tuple"].startswith(rel + "(") and r is not None:
            return {"relation": rel, "id": r["id"], "file": r["file"], "line": r["line"],
                    "text": r["text"], "tuple": n["tuple"]}
        stack += n.get("premises", [])
    return None


def _out_of_place(ctx: Context, u: tuple[int, int], item: dict, proof: bool) -> None:
    from bufferlog.engine.causes import next_iteration

    o, i = u
    out = ctx.out
    raws = sorted(tuple(t[2:]) for t in out.conflict_if_inplace if (t.xo, t.xi) == u)
    ro_ = sorted(t.v for t in out.nonwritable_if_inplace if (t.o, t.i) == u)
    c = ctx.dec.conflicts.get(u)
    if raws:
        # several triples: prefer the one the decision procedure met (mlir-opt's C_n tags)
        want = (c.read + c.write + (c.definition,)) if c is not None and c.kind == RAW else None
        ro, ri, wo, wi, d = _pick(raws, lambda t: t == want)
        loop = next_iteration(ctx.an, ro, wo)
        item["reason"] = "read-after-write conflict if in place" + (f",{loop}" if loop else "")
        if loop:
            item["loop"] = loop.strip()
        item["definition"] = ctx.value(d)
        item["conflicting_write"] = {"operand": wi, **ctx.where(wo)}
        item["read"] = {"operand": ri, **ctx.where(ro)}
        item["query"] = _tuple(Outputs.conflict_if_inplace.name, o, i, ro, ri, wo, wi, d)
        item["other_conflicts"] = len(raws) - 1
        item["conflict"] = RAW
    elif ro_:
        v = _pick(ro_, lambda x: c is not None and x == c.definition)
        item["reason"] = "would write into a read-only buffer if in place"
        item["read_only"] = ctx.value(v)
        item["query"] = _tuple(Outputs.nonwritable_if_inplace.name, o, i, v)
        item["conflict"] = NOT_WRITABLE
    elif any((t.xo, t.xi) == u for t in out.parallel_if_inplace):
        _, _, wo, wi, d = min(t for t in out.parallel_if_inplace if (t.xo, t.xi) == u)
        item["reason"] = ("parallel-region conflict if in place: a write inside an scf.forall body "
                          "into a buffer defined outside it, which is read")
        item["definition"] = ctx.value(d)
        item["conflicting_write"] = {"operand": wi, **ctx.where(wo)}
        item["query"] = _tuple(Outputs.parallel_if_inplace.name, o, i, wo, wi, d)
        item["conflict"] = PARALLEL
    elif u in out.copy_forced:
        item["query"] = _tuple(Outputs.copy_forced.name, o, i)
        rule = _user_rule(ctx, item["query"], AnalysisOutputs.must_copy.name)
        item["reason"] = "forced out of place by a must_copy rule" + (
            f" at {ctx.show.path(rule['file'])}:{rule['line']}" if rule else "")
        if rule:
            item["rule"] = rule
        item["conflict"] = FORCED
    else:
        item["reason"] = "out of place by the chosen strategy (in place would not conflict)"
        if proof:
            item["why_not"] = [ctx.why_not(_tuple("would_conflict", o, i))]
        return
    if proof:
        item["proof"] = ctx.explain(item["query"])


def _in_place(ctx: Context, u: tuple[int, int], item: dict, proof: bool) -> None:
    o, i = u
    an = ctx.an
    out = ctx.out
    cls = {t.v: t.c for t in out.al_class}
    c = cls.get(an.tuse[u])
    pairs = sorted(tuple(p) for p in out.cleared
                   if cls.get(an.tuse[(p[0], p[1])]) == c or cls.get(an.tuse[(p[2], p[3])]) == c)
    pairs.sort(key=lambda p: (p[2:4] != u and p[:2] != u, p))  # pairs with this use first
    item["pairs_checked"] = len(pairs)
    base = ("must bufferize in place (terminator operand); no conflict in its alias set"
            if u in an.must else "no conflict in its alias set") + (
        f" ({len(pairs)} read/write pair{'s' if len(pairs) != 1 else ''} checked, each exempt)"
        if pairs else "")
    item["reason"] = base
    if ctx.user_no_conflict:  # a user's no_conflict rule may be what clears a pair: cite it
        for ro, ri, wo, wi, d in pairs:
            if (ro, ri, wo, wi, d) not in out.exempt:
                continue
            rule = _user_rule(ctx, _tuple(Outputs.exempt.name, ro, ri, wo, wi, d), "no_conflict")
            if rule is not None:
                item["rule"] = rule
                from bufferlog.engine.causes import at

                item["reason"] = (f"the no_conflict rule at {ctx.show.path(rule['file'])}:"
                                  f"{rule['line']} clears its conflict with the {an.name[ro]} at "
                                  f"{at(an, ro)}; " + base)
                break
    if not proof:
        return
    item["why_not"] = [ctx.why_not(_tuple("would_conflict", o, i))]
    item["pairs"] = []
    for ro, ri, wo, wi, d in pairs[:MAX_PAIRS]:
        q = _tuple(Outputs.conflict.name, ro, ri, wo, wi, d)
        entry = {"read": {"operand": ri, **ctx.where(ro)},
                 "write": {"operand": wi, **ctx.where(wo)},
                 "definition": ctx.value(d), "why_not": ctx.why_not(q)}
        if (ro, ri, wo, wi, d) in out.exempt:  # which rule clears it: the proof says
            entry["exemption"] = ctx.explain(_tuple(Outputs.exempt.name, ro, ri, wo, wi, d))
        item["pairs"].append(entry)


_FILE_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?::(?P<col>\d+))?$")
_LOC_POS = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_LOC_REF = re.compile(r"loc\((#[\w.$-]+)\)")


def output_position(path: str, line: int) -> tuple[int, int]:
    """The input line and column an op printed on ``line`` of ``path`` came from: the
    innermost position of its ``loc(...)`` (``--mlir-print-debuginfo`` output, ours or
    mlir-opt's, with location aliases resolved)."""
    try:
        lines = Path(path).read_text(errors="replace").splitlines()
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}") from None
    if not 0 < line <= len(lines):
        raise UserError(f"{path} has no line {line}", f"{path}:1:1")
    text = lines[line - 1]
    aliases = dict(re.findall(r"^(#[\w.$-]+) = (loc\(.*\))\s*$", "\n".join(lines), re.M))
    for _ in range(8):  # a named location wraps an alias that may wrap another
        m = _LOC_REF.search(text[text.rfind("loc("):]) if "loc(" in text else None
        if m is None or m.group(1) not in aliases:
            break
        text = aliases[m.group(1)]
    pos = _LOC_POS.findall(text[text.find("loc("):]) if "loc(" in text else []
    if not pos:
        raise UserError("no location on this line: print it with --mlir-print-debuginfo",
                        f"{path}:{line}:1")
    _, ln, col = pos[-1]
    return int(ln), int(col)


def output_line(path: str, line: int) -> dict | None:
    """Line ``line`` of a ``--mlir-print-debuginfo`` output: its op without the location
    and the cause a named location gives (None when there is none)."""
    try:
        text = Path(path).read_text(errors="replace").splitlines()[line - 1]
    except (OSError, IndexError):
        return None
    at = text.rfind(" loc(")
    cause = re.match(r'loc\("((?:[^"\\]|\\.)*)"\(', text[at + 1:]) if at >= 0 else None
    if cause is None:
        return None
    return {"loc": f"{path}:{line}", "text": text[:at].strip(),
            "cause": re.sub(r"\\(.)", r"\1", cause.group(1))}


def select_ops(ctx: Context, target: str) -> list[int]:
    """The ops ``--op`` names: a line of the input, ``%name``, ``FILE:LINE[:COL]`` of the
    input, or ``FILE:LINE`` of an output printed with ``--mlir-print-debuginfo``."""
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
    col = None
    m = _FILE_LINE.match(target)
    if m is not None:
        line = int(m["line"])
        col = int(m["col"]) if m["col"] else None
        if m["file"] != file:
            ctx.output_line = output_line(m["file"], line)
            line, col = output_position(m["file"], line)
    else:
        try:
            line = int(target)
        except ValueError:
            raise UserError(f"--op takes a line, FILE:LINE[:COL] or %name, got '{target}'") from None
    ops = [o for o, (_, ln, c) in an.loc.items() if ln == line and o in an.op_tuses
           and o not in an.func_ops]
    if not ops:
        raise UserError(f"no op with tensor operands on line {line}", f"{file}:{line}:{col or 1}")
    # a column picks one of several ops on the line: the op starting there, or the last
    # one starting before it (MLIR locates an op at its name, after its results)
    starts = sorted((an.loc[o][2], o) for o in ops)
    if col is not None and len(ops) > 1:
        before = [o for c, o in starts if c <= col]
        return [before[-1]] if before else [starts[0][1]]
    return sorted(ops)


def alias_path(ctx: Context, u: tuple[int, int]) -> list[str]:
    """How the buffer operand ``u`` writes is reached from where it was defined: the values
    from the definition to the operand, each with the op that passes the buffer on (an
    ``scf.if`` yield, a loop's iter_args, a view op). Empty when the operand is the
    definition itself."""
    an = ctx.an
    start = an.tuse[u]
    prev: dict[int, tuple[int, int] | None] = {start: None}
    work, root = [start], start
    while work:
        v = work.pop()
        root = v
        back = [an.tuse[w] for w, _kind in an.aliasing_operands(v) if ctx.dec.inplace.get(w, True)]
        back += [an.tuse[(o, i)] for (o, i), arg in an.loop_arg.items() if arg == v]
        fresh = [b for b in back if b not in prev]
        for b in fresh:
            prev[b] = (v, 0)
        if fresh:
            work = [fresh[0]]  # one path is enough: the first way back
    path, v = [], root
    while v is not None:
        path.append(_value_text(ctx, v))
        step = prev[v]
        v = step[0] if step else None
    return path if len(path) > 1 else []


def _value_text(ctx: Context, v: int) -> str:
    an = ctx.an
    names = ctx.value_names
    if v in an.result_of:
        o, _ = an.result_of[v]
        return f"%{names.get(v, '?')} ({an.name[o]} at {an.loc_text(o)})"
    b, i = an.bbarg_of[v]
    o = an.region_parent[an.block_region[b]]
    return f"%{names.get(v, '?')} (block argument {i} of {an.name[o]} at {an.loc_text(o)})"


def explain_ops(ctx: Context, target: str, proof: bool = False) -> dict:
    from bufferlog.frontend.operand_syntax import operand_syntax

    out = []
    ctx.value_names = dict(ctx.facts.rows["value_name"])
    copied_by_conflict = 0
    for o in select_ops(ctx, target):
        entry = {**ctx.where(o), "operands": []}
        for i in ctx.an.op_tuses[o]:
            u = (o, i)
            ip = ctx.dec.inplace.get(u, True)
            item: dict = {"operand": i, "syntax": operand_syntax(ctx.facts.ops[o], i),
                          "inplace": ip}
            (_in_place if ip else _out_of_place)(ctx, u, item, proof)
            copied_by_conflict += item.get("conflict") in (RAW, NOT_WRITABLE, PARALLEL)
            path = alias_path(ctx, u)
            if path:
                item["alias_path"] = path
            entry["operands"].append(item)
        out.append(entry)
    _name_ids(ctx.show, out)
    res = {"engine": ctx.engine_used, "conflicts": copied_by_conflict,
           "certificate_conflicts": len(ctx.out.conflict), "ops": out}
    if getattr(ctx, "output_line", None):
        res["output"] = ctx.output_line  # the output op --op named, with its cause
    return res


def _name_ids(show: Display, node) -> None:
    """Give every tuple of the proofs and why-not answers its shown form (``shown``,
    ``shown_query``: ids as SSA names), next to the numeric one the engine takes."""
    if isinstance(node, list):
        for x in node:
            _name_ids(show, x)
    elif isinstance(node, dict):
        if isinstance(node.get("tuple"), str):
            node["shown"] = show.tuple(node["tuple"])
        if isinstance(node.get("query"), str):
            node["shown_query"] = show.tuple(node["query"])
        if isinstance(node.get("binding"), dict):  # a why-not rule's variables
            node["shown_binding"] = {k: show.by_name(k, v) for k, v in node["binding"].items()}
        for k, v in node.items():
            if isinstance(v, dict | list) and k not in ("definition", "read", "write",
                                                        "conflicting_write", "read_only"):
                _name_ids(show, v)


def explain(facts, an, dec, target: str, engine: str = "auto", rules_dir=None, depth: int = 4,
            source_lines: list[str] | None = None, proof: bool = False) -> dict:
    """The explanation of ``target``'s operands (see the module doc) as a JSON-able dict;
    ``proof``: with the engine's proof trees and why-not answers."""
    ctx = Context(facts, an, dec, engine, rules_dir, depth)
    ctx.source_lines = source_lines or []
    return explain_ops(ctx, target, proof)


def _shipped_dir() -> str:
    from bufferlog.core.resources import rules_dir

    return str(rules_dir())


def _under(path: str, root: str) -> bool:
    try:
        Path(path).resolve().relative_to(Path(root).resolve())
        return True
    except (ValueError, OSError):
        return False


def show_path(file: str) -> str:
    """A rule file as people read it: a shipped one relative to the shipped rules
    directory (``rules/analysis/conflicts.dl``), any other relative to the working
    directory when it lies below it."""
    shipped = Path(_shipped_dir()).resolve()
    p = Path(file)
    try:
        return "rules/" + str(p.resolve().relative_to(shipped))
    except (ValueError, OSError):
        pass
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return file


#: columns of a relation that hold an op id / a value id (by the attribute names the
#: rules use: rules/schema.dl and the rule files keep to them)
OP_COLUMNS = {"o", "ro", "wo", "xo", "t", "op", "read_op", "write_op", "o1", "o2"}
VALUE_COLUMNS = {"v", "d", "u", "d1", "d2", "v1", "v2", "src", "dst", "dest", "arg", "res"}


class Display:
    """How a proof shows a tuple: op and value ids as the input's SSA names (an op with
    no result as ``name@line:col``)."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def path(self, file: str) -> str:
        return show_path(file)

    def op(self, o: int) -> str:
        op = self.ctx.facts.ops[o] if 0 <= o < len(self.ctx.facts.ops) else None
        if op is None:
            return str(o)
        if op.results and op.results[0].name:
            return f"%{op.results[0].name}"
        _, ln, c = self.ctx.an.loc.get(o, ("-", 0, 0))
        return f"{op.name}@{ln}:{c}"

    def value(self, v: int) -> str:
        names = getattr(self.ctx, "value_names", None) or dict(self.ctx.facts.rows["value_name"])
        n = names.get(v)
        return f"%{n}" if n else str(v)

    def by_name(self, var: str, value):
        """A rule variable's value as shown: an op or value id by the variable's name."""
        if isinstance(value, int) and var in OP_COLUMNS:
            return self.op(value)
        if isinstance(value, int) and var in VALUE_COLUMNS:
            return self.value(value)
        return value

    def column(self, rel: str, k: int, raw: str) -> str:
        decl = self.ctx.prog.decls.get(rel)
        if decl is None or k >= len(decl.attrs) or not raw.lstrip("-").isdigit():
            return raw
        name = decl.attrs[k][0]
        if name in OP_COLUMNS:
            return self.op(int(raw))
        if name in VALUE_COLUMNS:
            return self.value(int(raw))
        return raw

    def tuple(self, text: str) -> str:
        """``conflict_if_inplace(3,1,4,0,3,1,4)`` as ``conflict_if_inplace(%1,1,%r,0,%1,1,%0)``."""
        rel, _, rest = text.partition("(")
        if not rest.endswith(")"):
            return text
        neg = rel.startswith("!")
        name = rel[1:] if neg else rel
        args = _split_args(rest[:-1])
        return rel + "(" + ",".join(self.column(name, k, a.strip()) for k, a in enumerate(args)) + ")"

def _split_args(text: str) -> list[str]:
    out, cur, quoted, esc = [], [], False, False
    for ch in text:
        if esc:
            cur.append(ch)
            esc = False
        elif ch == "\\":
            cur.append(ch)
            esc = True
        elif ch == '"':
            cur.append(ch)
            quoted = not quoted
        elif ch == "," and not quoted:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def _indent(text: str, n: int) -> list[str]:
    return [" " * n + ln for ln in text.rstrip("\n").split("\n")]


def render(res: dict) -> str:
    """The text of an explanation: per operand the answer in the input's names and places;
    the proof trees and why-not answers when the explanation has them (``--proof``), with
    ids as SSA names and rule files relative to the rules directory."""
    from bufferlog.engine import render_text

    def proof_text(r: dict) -> str:
        return render_text(r, show_path)

    lines = []
    if res.get("output"):
        o = res["output"]
        lines += [f"{o['loc']}: {o['text']}", f"  cause: {o['cause']}"]
    for e in res["ops"]:
        lines.append(f"{e['loc']}: {e['text']}")
        for it in e["operands"]:
            state = "in place" if it["inplace"] else "OUT OF PLACE (copy)"
            lines.append(f"  operand #{it['operand']} `{it['syntax']}`: {state}: {it['reason']}")
            if "alias_path" in it:
                lines.append(f"    alias path: {' -> '.join(it['alias_path'])}")
            for k in ("definition", "conflicting_write", "read", "read_only"):
                if k in it:
                    x = it[k]
                    extra = x.get("value") or f"operand #{x.get('operand')}"
                    lines.append(f"    {k.replace('_', ' ')}: {x['loc']}: {extra} of {x['text']}")
            if "rule" in it:
                r = it["rule"]
                lines.append(f"    your rule: {show_path(r['file'])}:{r['line']}: {r['text']}")
            if "proof" in it:
                lines.append(f"    proof of {it.get('shown_query', it['query'])}:")
                lines += _indent(proof_text(it["proof"]), 6)
            for w in it.get("why_not", []):
                lines.append(f"    why not {w.get('shown_query', w['query'])}:")
                lines += _indent(proof_text(w), 6)
            for p in it.get("pairs", []):
                r, w, d = p["read"], p["write"], p["definition"]
                lines.append(f"    pair: read {r['loc']} operand #{r['operand']} ({r['op']}), "
                             f"write {w['loc']} operand #{w['operand']} ({w['op']}), "
                             f"definition {d['loc']} {d['value']}")
                lines += _indent(proof_text(p["why_not"]), 6)
                if "exemption" in p:
                    lines.append("      exemption that holds:")
                    lines += _indent(proof_text(p["exemption"]), 8)
    if any("[...: " in ln for ln in lines):
        lines.append("a [...] node is cut at --depth: `bufferlog facts FILE --with-decisions -o DIR` "
                     "writes the facts these proofs come from; `bufferlog datalog explain` "
                     "expands the tuple the node names")
    return "\n".join(lines) + "\n"
