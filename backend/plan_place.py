"""Where bufferized allocations live (memory planning before deallocation): the stages
that move allocations, each deciding by one run of ``rules/placement.dl`` on the IR as
the stage before left it, and applying what it derived. No decision is taken here.

* out-parameters (``out_param``): a private function's result that is always a fresh
  static buffer becomes an argument its callers allocate (:mod:`backend.plan_outparams`
  applies it);
* a pair out of an ``scf.if`` (``branch_pair``): the first allocations of its two
  branches, of one type and one role, become one made before it (again while the
  branches' next allocations pair up);
* out of loops (``hoist_before``): a local static allocation in a sequential loop's body
  moves before the outermost sequential loop around it;
* to the stack (``promote``): a small local static allocation that runs once per call
  becomes a ``memref.alloca``.
"""

from __future__ import annotations

from bufferlog.frontend.facts import export
from bufferlog.frontend.ir import Module

from .output_map import handover

PLACEMENT_MAIN = "placement.dl"


def derive(module: Module, on: list[str], values: dict[str, int] | None = None,
           engine: str = "auto", rules_dir=None):
    """One run of the placement program on ``module`` with the stages ``on``: the facts
    (to map ids back to ops) and the derived relations."""
    from bufferlog.engine.interface import load, outputs
    from bufferlog.engine.run import run

    prog = load(PLACEMENT_MAIN, rules_dir, lenient=True)
    facts = export(module)
    rows = {k: v for k, v in facts.rows.items() if k in prog.inputs}
    rows["plan_on"] = [(n,) for n in on]
    rows["plan_value"] = sorted((values or {}).items())
    rel = run(prog, rows, engine=engine, relations=outputs(PLACEMENT_MAIN)).relations
    return facts, rel


def out_params(module: Module, engine: str = "auto", rules_dir=None) -> int:
    """Turn every result ``out_param`` names into an out-parameter; how many."""
    from .plan_outparams import rewrite

    facts, rel = derive(module, ["out_params"], engine=engine, rules_dir=rules_dir)
    by_func: dict[int, list[int]] = {}
    for f, k, _o in sorted(rel["out_param"]):
        by_func.setdefault(f, []).append(k)
    calls: dict[str, list] = {}
    for o, sym in sorted(facts.rows["call"]):
        calls.setdefault(sym, []).append(facts.ops[o])
    for f, ks in by_func.items():
        fn = facts.ops[f]
        rewrite(fn, ks, calls.get(fn.attrs["sym_name"].value, []))
    return sum(len(ks) for ks in by_func.values())


def hoist_to_dominator(module: Module, engine: str = "auto", rules_dir=None) -> int:
    """Replace each ``branch_pair`` (x before its op, y gone), round after round while
    pairs remain; how many pairs."""
    hoisted = 0
    while True:
        facts, rel = derive(module, ["hoist_to_dominator"], engine=engine, rules_dir=rules_dir)
        pairs = sorted(rel["branch_pair"])
        if not pairs:
            return hoisted
        for p, x, y in pairs:
            op, a, b = facts.ops[p], facts.ops[x], facts.ops[y]
            a.parent.ops.remove(a)
            op.parent.insert_before(op, a)
            b.results[0].replace_all_uses_with(a.results[0])
            handover(b)
            b.erase()
            hoisted += 1


def hoist_and_promote(module: Module, hoist: bool, promote: bool, max_bytes: int,
                      engine: str = "auto", rules_dir=None) -> tuple[int, int]:
    """Move each ``hoist_before`` allocation before its loop and make each ``promote``
    one a ``memref.alloca``; (loop levels hoisted past, promotions)."""
    on = [n for n, flag in (("hoist_out_of_loops", hoist), ("promote_buffers_to_stack", promote))
          if flag]
    if not on:
        return 0, 0
    facts, rel = derive(module, on, {"max_alloc_size_in_bytes": max_bytes}, engine, rules_dir)
    from .plan import static_bytes

    levels = len(rel["hoist_past"])
    past: dict[int, list[int]] = {}
    for o, loop in sorted(rel["hoist_past"]):
        past.setdefault(o, []).append(loop)
    for o, loop in sorted(rel["hoist_before"]):
        op, lp = facts.ops[o], facts.ops[loop]
        op.parent.ops.remove(op)
        lp.parent.insert_before(lp, op)
        for x in sorted(past.get(o, ()), reverse=True):  # innermost loop first
            _because(op, f"hoisted out of the {facts.ops[x].name}: one buffer serves every "
                         "iteration")
    for o, stack_name in sorted(rel["promote"]):
        op = facts.ops[o]
        op.name = stack_name
        _because(op, f"on the stack: {static_bytes(op.results[0].type)} bytes, made once per "
                     "call, no alias leaves the function")
    return levels, len(rel["promote"])


def _because(op, why: str) -> None:
    op.cause = (f"{op.cause}; " if op.cause else "") + why
