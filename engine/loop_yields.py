"""mlir-opt's ``allow-return-allocs-from-loops=false`` (its default): after the analysis,
every tensor a loop passes to its next iteration must be equivalent to the iteration
argument that receives it, or the input is rejected with mlir-opt's message.

* ``scf.for``: yield operand ``k`` and iteration argument ``k`` of the body;
* ``scf.while``: the ``scf.condition`` arguments and the arguments of the block they end
  (the "before" region), then the ``scf.yield`` operands and the arguments of the "after"
  region, as mlir-opt checks them.

Equivalence is the analysis's own (the equivalence classes the decisions built,
``engine/greedy.py``), the one ``__equivalent_func_args__`` is printed from.
"""

from __future__ import annotations

from bufferlog.frontend import types as T

from bufferlog.core import UserError


def check_loop_yields(facts, view) -> None:
    """Raise a located :class:`UserError` at the first loop terminator (in mlir-opt's
    post-order walk) that passes a tensor not equivalent to its iteration argument."""
    equiv = view.greedy.equiv
    vid = facts.value_id

    def same(a, b) -> bool:
        ia, ib = vid.get(a), vid.get(b)
        return ia is not None and ib is not None and equiv.find(ia) == equiv.find(ib)

    def check(term, vals, args, what: str) -> None:
        for k, v in enumerate(vals):
            if T.is_tensor(v.type) and (k >= len(args) or not same(v, args[k])):
                raise UserError(f"{what} #{k} is not equivalent to the corresponding iter "
                                "bbArg", term.loc)

    for op in _post_order(facts.ops):  # nested loops first: mlir-opt's walk, first error
        if op.name == "scf.for":
            body = op.regions[0].blocks[0]
            check(body.ops[-1], body.ops[-1].operands, body.args[1:], "Yield operand")
        elif op.name == "scf.while":
            before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
            cond = before.ops[-1]
            check(cond, cond.operands[1:], before.args, "Condition arg")
            check(after.ops[-1], after.ops[-1].operands, after.args, "Yield operand")


def _post_order(ops: list) -> list:
    """The loops of ``ops`` (every op of the module, in pre-order) in post-order: a loop
    after the loops nested in it (one walk with an explicit stack)."""
    known = {id(op) for op in ops}
    roots = [op for op in ops if op.parent_op is None or id(op.parent_op) not in known]
    out = []
    stack = [(op, False) for op in reversed(roots)]
    while stack:
        op, done = stack.pop()
        if done:
            if op.name in ("scf.for", "scf.while"):
                out.append(op)
            continue
        stack.append((op, True))
        stack.extend((x, False) for r in reversed(op.regions) for b in reversed(r.blocks)
                     for x in reversed(b.ops))
    return out
