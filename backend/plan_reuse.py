"""Buffer reuse: colour the graph the rules derived (``rules/plan.dl``: ``reuse_range``,
``may_share``) and make each colour one buffer.

Run after the frees are placed. A candidate is a ``memref.alloc`` that lives over the ops
``i..j`` of its block (its free right after op ``j``). A colour is a chain of candidates
``a -> c -> ...`` where each pair is ``may_share`` (same block and type, ``a`` dead when
``c`` is made: they do not interfere): ``c``'s alloc goes, its uses take ``a``'s buffer,
and ``a``'s free goes, so the buffer is freed where ``c`` was. The buffer is then held
from ``a``'s alloc to ``c``'s free, across the gap between them (the rules never offer a
buffer across an allocation they cannot size), and the colouring keeps the peak low:

* Z3 (at most ``Z3_BUDGET`` candidates in the block): minimise the peak bytes of the
  block's candidates (their ranges plus the gaps the chains hold), then the number of
  buffers;
* greedy beyond that, in program order: a candidate joins the chain whose last buffer died
  last before it, if no other candidate is made in between (so the peak never grows).
"""

from __future__ import annotations

import bisect
from collections import defaultdict

from bufferlog.frontend.ir import Op, Value

from bufferlog.core.records import value_class

from .ir_edit import BlockEdits
from .ops import CONDITIONAL_FREE, FREE, has
from .output_map import handover
from .plan import static_bytes

Z3_BUDGET = 16  # candidates per block: Z3 answers in well under a second at this size


@value_class
class Candidate:
    vid: int
    value: Value
    start: int  # position of its alloc in the block
    end: int  # position of its last use (its free follows)
    size: int


@value_class
class Reuse:
    """Allocation ``taker`` was removed: its uses take the buffer of ``giver``'s alloc."""

    taker: Op
    giver: Op


def share_buffers(rel, values: dict[int, Value]) -> list[Reuse]:
    """Share buffers as the relations allow (module doc); the reuses made."""
    allowed = sorted(rel.may_share)
    blocks: dict[int, list[Candidate]] = defaultdict(list)
    for v, b, i, j in sorted(rel.reuse_range):
        val = values[v]
        size = static_bytes(val.type)
        if size is not None and _freed_once_in_place(val):
            blocks[b].append(Candidate(v, val, i, j, size))
    done: list[Reuse] = []
    by_vid = {c.vid: (b, c) for b, cs in blocks.items() for c in cs}
    pairs: dict[int, set] = defaultdict(set)
    for a, c in allowed:
        if a in by_vid and c in by_vid:
            pairs[by_vid[a][0]].add((by_vid[a][1], by_vid[c][1]))
    for b, cands in blocks.items():
        cands.sort(key=lambda c: c.start)
        blk = cands[0].value.op.parent
        pos = {op: k for k, op in enumerate(blk.ops)}
        # the emitted IR agrees with the rules: a's free comes before c's alloc (the
        # backend keeps a free at the block end when its last use was removed)
        edges = {(a, c) for a, c in pairs[b] if pos[_free(a.value)] < pos[c.value.op]}
        chains = _z3(cands, edges) if len(cands) <= Z3_BUDGET else _greedy(cands, edges)
        if chains:
            edits = BlockEdits()
            for chain in chains:
                done.extend(_merge(chain, pos, edits))
            edits.flush()
    return done


def _free(v: Value) -> Op:
    return next(u.op for u in v.uses if has(u.op, FREE))


def _freed_once_in_place(v: Value) -> bool:
    """The free the rules placed is there: one plain ``memref.dealloc`` of ``v`` in its
    block (not a guarded free nor a runtime alias check; the alloc still exists)."""
    frees = [u.op for u in v.uses if has(u.op, FREE) or has(u.op, CONDITIONAL_FREE)]
    return (v.op.parent is not None and len(frees) == 1 and has(frees[0], FREE)
            and frees[0].parent is v.op.parent)


def _chains(cands: list[Candidate], edges) -> list[list[Candidate]]:
    nxt = dict(edges)
    taken = set(nxt.values())
    heads = [c for c in cands if c not in taken]
    out = []
    for h in heads:
        chain = [h]
        while chain[-1] in nxt:
            chain.append(nxt[chain[-1]])
        if len(chain) > 1:
            out.append(chain)
    return out


def _greedy(cands: list[Candidate], edges) -> list[list[Candidate]]:
    starts = sorted(c.start for c in cands)
    preds: dict[Candidate, list[Candidate]] = defaultdict(list)
    for a, c in sorted(edges, key=lambda p: (p[0].start, p[1].start)):  # same input, same output
        preds[c].append(a)
    tails: set[Candidate] = set()  # the last candidate of each chain
    chosen = []
    for c in cands:
        # no candidate made between t's death and c: the first start after t.end is c's
        fits = [t for t in preds[c] if t in tails
                and starts[bisect.bisect_right(starts, t.end)] >= c.start]
        if fits:
            t = max(fits, key=lambda t: (t.end, t.start))
            tails.remove(t)
            chosen.append((t, c))
        tails.add(c)
    return _chains(cands, chosen)


def _z3(cands: list[Candidate], edges) -> list[list[Candidate]]:
    """Chains minimising the peak bytes at the candidates' allocs, then the buffers."""
    if not edges:
        return []
    import z3

    ctx = z3.Context()
    opt = z3.Optimize(ctx=ctx)
    e = {pair: z3.Bool(f"e{k}", ctx) for k, pair in enumerate(sorted(
        edges, key=lambda p: (p[0].start, p[1].start)))}
    for c in cands:
        opt.add(z3.AtMost(*[x for (a, _), x in e.items() if a == c] or [z3.BoolVal(False, ctx)], 1))
        opt.add(z3.AtMost(*[x for (_, d), x in e.items() if d == c] or [z3.BoolVal(False, ctx)], 1))
    peak = z3.Int("peak", ctx)
    for p in sorted({c.start for c in cands}):
        held = sum(c.size for c in cands if c.start <= p <= c.end)
        gaps = [z3.If(x, a.size, 0, ctx) for (a, c), x in e.items() if a.end < p < c.start]
        opt.add(peak >= z3.IntVal(held, ctx) + z3.Sum(gaps) if gaps else peak >= held)
    opt.minimize(peak)
    opt.maximize(z3.Sum([z3.If(x, 1, 0, ctx) for x in e.values()]))
    opt.set(timeout=2000)
    if opt.check() != z3.sat:
        return _greedy(cands, edges)
    m = opt.model()
    return _chains(cands, [pair for pair, x in e.items() if z3.is_true(m.eval(x))])


def _merge(chain: list[Candidate], pos: dict[Op, int], edits: BlockEdits) -> list[Reuse]:
    """``chain[0]``'s buffer serves every candidate of the chain (module doc); ``pos``:
    the positions of the ops of their block, whose removals ``edits`` queues."""
    first = chain[0].value
    # the shared buffer's current free, kept rather than searched again among the uses of
    # ``first``, which grow with every merge (quadratic on a long chain)
    free = _free(first)
    out = []
    for c in chain[1:]:
        assert pos[free] < pos[c.value.op], \
            "reuse: the earlier buffer must be freed before the later one is made"
        edits.remove(free)
        free = _free(c.value)  # now the free of the shared buffer: say so in its location
        free.cause = (f"free of the buffer the allocations at {first.op.loc} and "
                      f"{c.value.op.loc} share (reuse); " + (free.cause or ""))
        c.value.replace_all_uses_with(first)
        handover(c.value.op)
        edits.remove(c.value.op)
        out.append(Reuse(c.value.op, first.op))
    return out
