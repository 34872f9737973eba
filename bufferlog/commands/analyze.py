"""``bufferlog analyze FILE``: One-Shot in-place analysis, printed like
``mlir-opt --one-shot-bufferize="bufferize-function-boundaries test-analysis-only
print-conflicts"`` (``__inplace_operands_attr__``, ``C_n[...]`` conflict tags,
``bufferization.access`` argument attributes, ``__equivalent_func_args__``), or as JSON."""

from __future__ import annotations

import argparse
import json

from bufferlog.commands import add_io, read_input


def add_analysis_options(p) -> None:
    p.add_argument("--strategy", choices=("oneshot", "optimal"), default="oneshot",
                   help="oneshot: mlir-opt's greedy order (default); optimal: fewest copied bytes (Z3)")
    p.add_argument("--engine", choices=("auto", "souffle", "embedded"), default="auto")
    p.add_argument("--rules", metavar="DIR", default=None,
                   help="extra/overriding rule files (e.g. semantics of your own ops)")
    p.add_argument("--z3-slices", action=argparse.BooleanOptionalAction, default=None,
                   help="drop conflicts between slices Z3 proves equal or disjoint (beyond "
                        "mlir-opt; default: off for oneshot, on for optimal)")


def register(sub) -> None:
    p = sub.add_parser("analyze", help="in-place analysis (annotated tensor IR, mlir-opt style)")
    add_io(p)
    add_analysis_options(p)
    p.add_argument("--format", choices=("mlir", "json"), default="mlir")
    p.set_defaults(func=run)


def annotate(facts, an, dec) -> None:
    """Attach mlir-opt's analysis attributes to the IR ops in place."""
    from bufferlog.engine.oneshot import operand_annotations
    from bufferlog.frontend import attrs as A

    ops = facts.ops
    for o, vals in operand_annotations(an, dec).items():
        ops[o].attrs["__inplace_operands_attr__"] = A.ArrayAttr(tuple(A.StringAttr(x) for x in vals))
    n = 0
    for u in dec.order:
        c = dec.conflicts.get(u)
        if c is None:
            continue
        if c.kind == "raw":
            _tag(an, ops, c.definition, f"C_{n}", "DEF")
            ops[c.write[0]].attrs[f"C_{n}[CONFL-WRITE: {c.write[1]}]"] = A.UnitAttr()
            ops[c.read[0]].attrs[f"C_{n}[READ: {c.read[1]}]"] = A.UnitAttr()
        elif c.kind == "parallel":
            continue  # mlir-opt tags no parallel-region conflict
        else:
            _tag(an, ops, c.definition, f"W_{n}", "NOT-WRITABLE")
        n += 1
    for r, eq in dec.equivalent_args.items():
        ops[r].attrs["__equivalent_func_args__"] = A.ArrayAttr(tuple(A.IntegerAttr(x, None) for x in eq))
    by_func: dict[int, dict[int, str]] = {}
    for (f, i), k in dec.access.items():
        by_func.setdefault(f, {})[i] = k
    for f, acc in by_func.items():
        fop = ops[f]
        ftype = fop.attrs.get("function_type")
        nargs = len(getattr(getattr(ftype, "type", ftype), "inputs", ()) or ()) or (max(acc) + 1)
        old = fop.attrs.get("arg_attrs")
        elems = list(getattr(old, "elems", ()) or ()) + [A.DictAttr(())] * nargs
        elems = elems[:nargs]
        for i, k in acc.items():
            items = tuple(x for x in elems[i].items if x[0] != "bufferization.access")
            elems[i] = A.DictAttr(items + (("bufferization.access", A.StringAttr(k)),))
        fop.attrs["arg_attrs"] = A.ArrayAttr(tuple(elems))


def _tag(an, ops, v, cid, what):
    from bufferlog.frontend import attrs as A

    if v in an.result_of:
        o, i = an.result_of[v]
        ops[o].attrs[f"{cid}[{what}: result {i}]"] = A.UnitAttr()
    else:
        b, i = an.bbarg_of[v]
        ops[an.region_parent[an.block_region[b]]].attrs[f"{cid}[{what}: bbArg {i}]"] = A.UnitAttr()


def to_json(facts, an, dec) -> dict:
    ops = []
    for o, vals in __import__("bufferlog.engine.oneshot", fromlist=["x"]).operand_annotations(an, dec).items():
        f, ln, c = an.loc.get(o, ("-", 0, 0))
        ops.append({"op": an.name[o], "loc": f"{f}:{ln}:{c}", "inplace": vals})
    copies = [u for u, ip in dec.inplace.items() if not ip]
    return {"ops": ops, "copies": len(copies),
            "copied_bytes": sum(an.copy_bytes(u) for u in copies)}


def run(args) -> int:
    from bufferlog.engine.oneshot import analyze_module
    from bufferlog.frontend.parser import parse
    from bufferlog.frontend.printer import print_module

    name, text = read_input(args.file)
    module = parse(text, name)
    facts, an, dec = analyze_module(module, args.strategy, args.engine, args.rules, args.z3_slices)
    if args.format == "json":
        out = json.dumps(to_json(facts, an, dec), indent=2) + "\n"
    else:
        annotate(facts, an, dec)
        out = print_module(module)
    if args.output == "-":
        print(out, end="")
    else:
        open(args.output, "w", encoding="utf-8").write(out)
    return 0
