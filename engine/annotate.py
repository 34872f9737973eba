"""mlir-opt's analysis attributes on the IR: what ``mlir-opt --one-shot-bufferize=
"bufferize-function-boundaries test-analysis-only print-conflicts"`` prints
(``__inplace_operands_attr__``, ``C_n[DEF|CONFL-WRITE|READ]`` and ``W_n[NOT-WRITABLE]``
tags, ``bufferization.access`` argument attributes, ``__equivalent_func_args__``)."""

from __future__ import annotations


def annotate(facts, an, dec, first: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """Attach mlir-opt's analysis attributes to the IR ops in place. As in mlir-opt, the
    ``C_n`` tags of read-after-write conflicts and the ``W_n`` tags of writes into
    read-only buffers are numbered apart, from ``first`` (the numbers after the last
    ones are returned)."""
    from bufferlog.engine.greedy import FORCED, PARALLEL, RAW
    from bufferlog.engine.oneshot import operand_annotations
    from bufferlog.frontend import attrs as A

    ops = facts.ops
    for o, vals in operand_annotations(an, dec).items():
        ops[o].attrs["__inplace_operands_attr__"] = A.ArrayAttr(tuple(A.StringAttr(x) for x in vals))
    n, w = first
    for u in dec.order:
        c = dec.conflicts.get(u)
        if c is None:
            continue
        if c.kind == RAW:
            _tag(an, ops, c.definition, f"C_{n}", "DEF")
            ops[c.write[0]].attrs[f"C_{n}[CONFL-WRITE: {c.write[1]}]"] = A.UnitAttr()
            ops[c.read[0]].attrs[f"C_{n}[READ: {c.read[1]}]"] = A.UnitAttr()
            n += 1
        elif c.kind not in (PARALLEL, FORCED):  # mlir-opt tags no parallel-region
            _tag(an, ops, c.definition, f"W_{w}", "NOT-WRITABLE")  # conflict; must_copy is ours
            w += 1
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
    return n, w


def _tag(an, ops, v, cid, what):
    from bufferlog.frontend import attrs as A

    if v in an.result_of:
        o, i = an.result_of[v]
        ops[o].attrs[f"{cid}[{what}: result {i}]"] = A.UnitAttr()
    else:
        b, i = an.bbarg_of[v]
        ops[an.region_parent[an.block_region[b]]].attrs[f"{cid}[{what}: bbArg {i}]"] = A.UnitAttr()


class ValueNames:
    """A nested array attribute of SSA value names, printed with the printer's own names
    (mlir-opt's ``dump-alias-sets``: ``[["%0", "%inserted", "%arg0"]]``)."""

    def __init__(self, nested):
        self.nested = nested  # lists of lists ... of Values

    def print_with(self, printer) -> str:
        def show(x) -> str:
            if isinstance(x, list):
                return "[" + ", ".join(show(y) for y in x) + "]"
            return '"' + printer.value(x) + '"'

        return show(self.nested)


def annotate_alias_sets(facts, an) -> None:
    """mlir-opt's ``dump-alias-sets``: on every op, the alias set of each tensor result
    (``__opresult_alias_set_attr__``) and of each tensor block argument of its regions
    (``__bbarg_alias_set_attr__``), from the decision procedure's final alias sets."""
    alias = an.greedy.alias
    members: dict[int, list[int]] = {}
    for v in sorted(an.tensor):
        members.setdefault(alias.find(v), []).append(v)
    val = facts.values

    def names(v: int) -> list:
        return [val[m] for m in members[alias.find(v)]]

    vid = facts.value_id
    for op in facts.ops:
        res = [names(vid[r]) for r in op.results if vid.get(r) in an.tensor]
        if res:
            op.attrs["__opresult_alias_set_attr__"] = ValueNames(res)
        regions, any_arg = [], False
        for r in op.regions:
            blocks = []
            for b in r.blocks:
                args = [names(vid[a]) for a in b.args if vid.get(a) in an.tensor]
                any_arg |= bool(args)
                blocks.append(args)
            regions.append(blocks)
        if any_arg:
            op.attrs["__bbarg_alias_set_attr__"] = ValueNames(regions)
