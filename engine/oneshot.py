"""One-Shot in-place decisions on top of the Datalog-derived relations (rules/analysis.dl).

The rules derive everything that does not depend on decisions: per-use reads, writes and
aliasing (ops.dl joined with the program), transitive reads, repetitive and exclusive
regions, read-only values. This module replays mlir-opt's greedy order on top of them:
functions callee-first; inside a function, ops with tensor semantics in reverse
post-order; each tensor operand in order is put out of place if making it in place
would write a read-only buffer or create a read-after-write conflict (definition,
conflicting write, read), else in place (its alias set is merged with its aliasing
results' in a union-find; equivalence classes too for equivalent aliases).

Decision-dependent pieces stay here: alias/equivalence union-find, definitions through
func.call results (callee summaries), writes of call operands, the RaW triple check.

Near-linear time: each alias set keeps its reads (sorted, latest op first), its in-place
writes and its count of read-only members, merged on union. Decisions so far are
conflict-free, so deciding a use only checks the pairs it creates (reads of one merged
set against writes of another, and every read against the use's own write); a use that
neither writes nor joins two sets is in place without a check.
``check_assignment`` re-checks a complete assignment (used by ``optimal``).
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import repeat

from bufferlog.core import UserError, rules_file

RULES = rules_file("analysis.dl")
DYNAMIC_BYTES = 4096  # weight of a copy of a tensor whose size is not static


class UnionFind:
    def __init__(self):
        self.parent: dict[int, int] = {}
        self.members: dict[int, list[int]] = {}

    def find(self, x: int) -> int:
        p = self.parent.get(x)
        if p is None:
            self.parent[x] = x
            self.members[x] = [x]
            return x
        while p != self.parent[p]:
            self.parent[p] = self.parent[self.parent[p]]
            p = self.parent[p]
        self.parent[x] = p
        return p

    def union(self, a: int, b: int) -> tuple[int, int] | None:
        """Merge the sets of a and b; return (new root, absorbed root) or None."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return None
        if len(self.members[ra]) < len(self.members[rb]):
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.members[ra].extend(self.members.pop(rb))
        return ra, rb

    def set_of(self, x: int) -> list[int]:
        return self.members[self.find(x)]


@dataclass
class Conflict:
    """Why a use is out of place: a RaW triple or a write into a read-only buffer."""

    kind: str  # "raw" | "not-writable"
    use: tuple[int, int]
    read: tuple[int, int] | None = None
    write: tuple[int, int] | None = None
    definition: int | None = None  # value


@dataclass
class Decisions:
    inplace: dict[tuple[int, int], bool] = field(default_factory=dict)
    conflicts: dict[tuple[int, int], Conflict] = field(default_factory=dict)
    order: list[tuple[int, int]] = field(default_factory=list)
    access: dict[tuple[int, int], str] = field(default_factory=dict)  # (func op, arg) -> kind
    equivalent_args: dict[int, list[int]] = field(default_factory=dict)  # return op -> idx
    # run(fixed, recheck=True): conflicts of imposed in-place uses, with their causes
    violations: list[tuple[Conflict, list[tuple[int, int]]]] = field(default_factory=list)


def derive(rows: dict, engine: str = "auto", rules_dir=None) -> dict[str, set]:
    from .run import load_program, run

    prog = load_program(RULES, rules_dir)
    return run(prog, rows, engine=engine).relations


class Analysis:
    """mlir-opt's One-Shot analysis state over facts + derived relations."""

    def __init__(self, rows: dict, rel: dict[str, set]):
        self.rows = rows
        self.name: dict[int, str] = {}
        self.block_of: dict[int, int] = {}
        for o, n, b, _ in rows["op"]:
            self.name[o], self.block_of[o] = n, b
        self.span = {o: last for o, last in rows["op_span"]}
        self.region_parent = {r: p for r, p, _ in rows["region"]}
        self.block_region = {b: r for b, r, _ in rows["block"]}
        self.parent_op = {o: self.region_parent[self.block_region[b]]
                          for o, b in self.block_of.items() if b >= 0}
        lo: dict[int, int] = {}
        hi: dict[int, int] = {}
        for o, b in self.block_of.items():
            if b >= 0:
                lo[b] = min(lo.get(b, o), o)
                hi[b] = max(hi.get(b, o), self.span[o])
        self.block_range = {b: (lo[b], hi[b]) for b in lo}
        self.result_of = {v: (o, i) for v, o, i in rows["result"]}
        self.bbarg_of = {v: (b, i) for v, b, i in rows["block_arg"]}
        self.results: dict[int, list[int]] = defaultdict(list)
        for v, o, _i in sorted(rows["result"], key=lambda t: (t[1], t[2])):
            self.results[o].append(v)
        self.tuse: dict[tuple[int, int], int] = {(o, i): v for o, i, v in rel["tuse"]}
        self.uses: dict[int, list[tuple[int, int]]] = defaultdict(list)
        self.op_tuses: dict[int, list[int]] = defaultdict(list)
        for (o, i), v in sorted(self.tuse.items()):
            self.uses[v].append((o, i))
            self.op_tuses[o].append(i)
        self.n_operands: dict[int, int] = defaultdict(int)
        for o, i, _ in rows["operand"]:
            self.n_operands[o] = max(self.n_operands[o], i + 1)
        self.tensor = {t[0] for t in rows["tensor"]}
        self.unknown = {t[0] for t in rel["unknown_op"]}
        self.reads = {(o, i) for o, i in rel["use_read"]}
        self.writes = {(o, i) for o, i in rel["use_write"]}
        self.read_via_alias = {(o, i) for o, i in rel["use_read_via_alias"]}
        self.aliases: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
        self.rev_alias: dict[int, list[tuple[tuple[int, int], str]]] = defaultdict(list)
        for o, i, v, k in sorted(rel["use_alias"]):
            self.aliases[(o, i)].append((v, k))
            self.rev_alias[v].append(((o, i), k))
        self.loop_arg = {(o, i): arg for o, i, _, arg in rel["loop_init"]}
        self.loop_yield = {(o, arg): v for o, arg, v in rel["loop_yield"]}
        self.loop_pairs: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
        for o, i, arg, v in sorted(rel.get("loop_pair", ())):
            self.loop_pairs[(o, i)].append((arg, v))
        self.must = {(o, i) for o, i in rel["must_inplace"]}
        self.elementwise = {(o, i) for o, i in rel["elementwise_use"]}
        self.value_read = {t[0] for t in rel["value_read"]}
        self.not_writable = {t[0] for t in rel["not_writable"]}
        self.op_rep = {o: r for o, r in rel["op_rep_region"]}
        self.val_rep = {v: r for v, r in rel["value_rep_region"]}
        self.rep_parent = {r: q for r, q in rel["rep_region_parent"]}
        self.exclusive = {t[0] for t in rel["exclusive_region"]}
        self.subset_insert = {o: (s, d) for o, s, d in rel["subset_insert"]}
        self.subset_extract = {o: s for o, s in rel["subset_extract"]}
        self.whole_insert = {o for o, _, _ in rel.get("subset_insert_whole", ())}
        for o, s_, d in rel.get("subset_insert_whole", ()):
            self.subset_insert[o] = (s_, d)
        self.func_args: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for f, i, v in sorted(rel["func_arg"]):
            self.func_args[f].append((i, v))
        self.access_attr = {(f, i): k for f, i, k in rel["arg_access_attr"]}
        self.func_returns: dict[int, list[int]] = defaultdict(list)
        for f, o in sorted(rel["func_return"]):
            self.func_returns[f].append(o)
        self.funcs = {sym: (f, decl) for f, sym, _, decl in rows["func"]}
        self.calls = {o: callee for o, callee in rows["call"]}
        self.bytes = {v: n for v, n in rows["type_bytes"]}
        self.slices: dict[int, dict] = defaultdict(dict)
        for o, kind, d, n in rows["slice_static"]:
            self.slices[o][(kind, d)] = ("c", n)
        for o, kind, d, v in rows["slice_dynamic"]:
            self.slices[o][(kind, d)] = ("v", v)
        self.loc = {o: (f, ln, c) for o, f, ln, c in rows["op_loc"]}
        self.carried_alias = sorted(rel.get("carried_alias", ()))
        # parallel regions (scf.forall bodies): innermost one of each op / value, -1 none
        self.op_par = {o: r for o, r in rel.get("op_par_region", ())}
        self.val_par = {v: r for v, r in rel.get("value_par_region", ())}
        self.has_parallel = any(r != -1 for r in self.op_par.values())
        # unstructured control flow: block successors, proper block dominance, branch
        # block arguments (aliased by the forwarded operands: mlir's BranchOpInterface)
        self.succ: dict[int, list[int]] = defaultdict(list)
        for b1, b2 in sorted(rel.get("succ_block", ())):
            self.succ[b1].append(b2)
        self.block_dom = {(d, b) for d, b in rel.get("block_dom", ())}
        self.branch_args = {a for _, _, a in rel.get("branch_operand", ())}
        self.no_write = {t[0] for t in rel.get("result_no_write", ())}
        self.graph_blocks = {t[0] for t in rel.get("graph_block", ())}
        self.region_blocks: dict[int, list[int]] = defaultdict(list)
        for b, r, _ in rows["block"]:
            self.region_blocks[r].append(b)
        self.multi_block = any(len(bs) > 1 for bs in self.region_blocks.values())
        # per value: its reading uses as sort keys (-op, operand), latest op first
        self.val_reads: dict[int, list[tuple[int, int]]] = {}
        for v, us in self.uses.items():
            ks = sorted((-o, i) for o, i in us if (o, i) in self.reads or (o, i) in self.read_via_alias)
            if ks:
                self.val_reads[v] = ks
        self.z3_slices = False  # --z3-slices: Z3-proven equal/disjoint slices (engine/slices.py)
        self._prover = None
        # aliasing of the rules alone: call operands get theirs from the callee summaries
        # of each run (prepare_calls), which depend on that run's decisions
        self._base_aliases = {u: list(al) for u, al in self.aliases.items()}
        self._base_rev_alias = {v: list(al) for v, al in self.rev_alias.items()}
        self.reset()

    # ------------------------------------------------------------------ state
    def reset(self) -> None:
        # call operand semantics are re-derived from this run's callee summaries: a
        # previous run (other decisions) may have summarised a callee differently
        self.aliases = defaultdict(list, {u: list(al) for u, al in self._base_aliases.items()})
        self.rev_alias = defaultdict(list, {v: list(al) for v, al in self._base_rev_alias.items()})
        self.alias = UnionFind()
        # per alias-set root (sets of more than one value): reading uses (sorted keys),
        # in-place writing uses, number of read-only members -- kept up to date on union
        self.set_reads: dict[int, list[tuple[int, int]]] = {}
        self.set_writes: dict[int, list[tuple[int, int]]] = {}
        self.set_readonly: dict[int, int] = {}
        self.equiv = UnionFind()
        # unions no use decision made (the guards): (a, b, call op for returned-twice)
        self.static_edges: list[tuple[int, int, int | None]] = []
        self.inplace: dict[tuple[int, int], bool] = {}
        self.call_writes: set[tuple[int, int]] = set()
        self._defs: dict[tuple[int, int], list[int]] = {}
        self._bmw: dict[int, bool] = {}
        self._par_def: dict[tuple[int, int], int | None] = {}
        self.summaries: dict[str, dict] = {}

    def is_write(self, u: tuple[int, int]) -> bool:
        return u in self.writes or u in self.call_writes

    def kind(self, u: tuple[int, int], v: int, k: str) -> str:
        if k == "loop":
            pairs = self.loop_pairs.get(u)
            return "equivalent" if pairs and all(self.equiv.find(a) == self.equiv.find(y)
                                                 for a, y in pairs) else "unknown"
        return k

    def bufferize_inplace(self, u: tuple[int, int]) -> None:
        self.inplace[u] = True
        v = self.tuse[u]
        # mlir merges only alias sets here; equivalence classes grow in the
        # per-function equivalence pass (equivalence_pass)
        if self.is_write(u):
            self.set_writes.setdefault(self.alias.find(v), []).append(u)
        for a, _k in self.aliases.get(u, ()):
            self.union_alias(v, a)

    def union_alias(self, a: int, b: int) -> None:
        """Merge the alias sets of a and b (and their read/write/read-only indexes)."""
        m = self.alias.union(a, b)
        if m is None:
            return
        ra, rb = m
        r1, r2 = self.reads_of(ra), self.reads_of(rb)
        self.set_reads[ra] = sorted(r1 + r2) if r1 and r2 else list(r1 or r2)
        self.set_reads.pop(rb, None)
        wb = self.set_writes.pop(rb, None)
        if wb:
            self.set_writes.setdefault(ra, []).extend(wb)
        self.set_readonly[ra] = self.readonly_of(ra) + self.readonly_of(rb)
        self.set_readonly.pop(rb, None)

    def reads_of(self, root: int) -> list[tuple[int, int]]:
        r = self.set_reads.get(root)
        return r if r is not None else self.val_reads.get(root, [])

    def readonly_of(self, root: int) -> int:
        n = self.set_readonly.get(root)
        return n if n is not None else int(root in self.not_writable)

    # ------------------------------------------------------------------ structure
    def contains(self, a: int, b: int) -> bool:
        """Op a properly contains op b."""
        return a < b <= self.span[a]

    def happens_before(self, a: int, b: int) -> bool:
        """mlir's happensBefore: a or an ancestor of a properly dominates b (b not inside)."""
        A = a
        while A is not None and A != 0:
            if self.contains(A, b):
                return False
            blk = self.block_of[A]
            lo, hi = self.block_range[blk]
            if lo <= b <= hi:
                return A < b
            if self.multi_block:
                bb = self.block_in_region(self.block_region[blk], b)
                if bb is not None:
                    return (blk, bb) in self.block_dom
            A = self.parent_op.get(A)
        return False

    def block_in_region(self, r: int, o: int) -> int | None:
        """The block of region r (of several blocks) that contains op o at any depth."""
        bs = self.region_blocks.get(r, ())
        if len(bs) < 2:
            return None
        for b in bs:
            lo, hi = self.block_range.get(b, (1, 0))
            if lo <= o <= hi:
                return b
        return None

    def reachable(self, x: int, y: int, avoid: int | None) -> bool:
        """mlir's Block::isReachable: a path of one or more edges from block x to block y
        that does not pass through block ``avoid``."""
        if y == avoid:
            return False
        seen = {avoid}
        work = list(self.succ.get(x, ()))
        while work:
            n = work.pop()
            if n == y:
                return True
            if n in seen:
                continue
            seen.add(n)
            work.extend(self.succ.get(n, ()))
        return False

    def def_block(self, d: int) -> int:
        if d in self.result_of:
            return self.block_of[self.result_of[d][0]]
        return self.bbarg_of[d][0]

    def _region_in(self, o: int, p: int) -> int | None:
        """The region of op p that contains op o (o nested in p)."""
        while o is not None:
            q = self.parent_op.get(o)
            if q == p:
                return self.block_region[self.block_of[o]]
            o = q
        return None

    def exclusive_ops(self, a: int, b: int) -> bool:
        A = a
        while A is not None and A != 0:
            P = self.parent_op.get(A)
            if P is None:
                return False
            if self.contains(P, b):
                ra = self.block_region[self.block_of[A]]
                rb = self._region_in(b, P)
                return ra != rb and ra in self.exclusive
            A = P
        return False

    def owner(self, v: int) -> int:
        if v in self.result_of:
            return self.result_of[v][0]
        b, _ = self.bbarg_of[v]
        return self.region_parent[self.block_region[b]]

    def block_contains(self, b: int, o: int) -> bool:
        lo, hi = self.block_range.get(b, (1, 0))
        return lo <= o <= hi

    # ------------------------------------------------------------------ use-def chains
    def aliasing_operands(self, v: int) -> list[tuple[tuple[int, int], str]]:
        return self.rev_alias.get(v, [])

    def reverse_chain(self, start: int, cond, leaves: bool, equiv_only: bool = False) -> list[int]:
        result: list[int] = []
        work = [start]
        visited: set[int] = set()
        while work:
            v = work.pop()
            if v in visited:
                if leaves:
                    result.append(v)
                continue
            visited.add(v)
            if cond(v):
                result.append(v)
                continue
            ops = (self.aliasing_operands(v) if v in self.result_of or v in self.branch_args
                   else [])
            if not ops or (v in self.result_of and self.result_of[v][0] in self.unknown):
                if leaves:
                    result.append(v)
                continue
            for u, k in ops:
                if equiv_only and self.kind(u, v, k) != "equivalent":
                    if leaves:
                        result.append(v)
                    continue
                work.append(self.tuse[u])
        return result

    def writes_memory(self, v: int) -> bool:
        """mlir's bufferizesToMemoryWrite(Value)."""
        r = self._bmw.get(v)
        if r is not None:
            return r
        self._bmw[v] = True  # cycle guard
        r = self._writes_memory(v)
        self._bmw[v] = r
        return r

    def _writes_memory(self, v: int) -> bool:
        if v not in self.result_of:
            return True
        o = self.result_of[v][0]
        if o in self.unknown:
            return True
        if v in self.no_write:
            return False  # tensor.empty: unspecified contents, no definition
        ops = self.aliasing_operands(v)
        if not ops:
            return True
        if any(self.is_write(u) for u, _ in ops):
            return True

        def inside(w: int) -> bool:
            return self.contains(o, self.owner(w)) and self.writes_memory(w)

        return any(self.reverse_chain(self.tuse[u], inside, leaves=False) for u, _ in ops)

    def definitions(self, u: tuple[int, int]) -> list[int]:
        d = self._defs.get(u)
        if d is None:
            d = self._defs[u] = self.reverse_chain(self.tuse[u], self.writes_memory, leaves=False)
        return d

    # ------------------------------------------------------------------ conflicts
    def rep_chain_ok(self, r: tuple[int, int], w: tuple[int, int], defs: list[int]) -> bool:
        """mlir's canUseOpDominance (regions part)."""
        for d in defs:
            r_read = self.op_rep.get(r[0], -1)
            r_def = self.val_rep.get(d, -1)
            if r_read == r_def:
                continue
            while True:
                nxt = self.rep_parent.get(r_read, -1) if r_read != -1 else None
                if nxt is None or nxt == r_def:
                    break
                r_read = nxt
            if r_read == -1:
                continue
            p = self.region_parent[r_read]
            if p == w[0] or self.contains(p, w[0]):
                return False
        if self.multi_block:
            # canUseOpDominanceDueToBlocks: a CFG cycle through the read's and the write's
            # blocks (not through the definition's) makes dominance meaningless
            rb, wb = self.block_of[r[0]], self.block_of[w[0]]
            if self.block_region[rb] == self.block_region[wb]:
                for d in defs:
                    db = self.def_block(d)
                    if self.reachable(rb, wb, db) and self.reachable(wb, rb, db):
                        return False
        return True

    def parallel_def(self, w: tuple[int, int]) -> int | None:
        """A definition (or leaf) of write w's buffer outside w's parallel region (mlir's
        check-parallel-regions: such a write must not be in place if the buffer is read)."""
        if w in self._par_def:
            return self._par_def[w]
        rw = self.op_par.get(w[0], -1)
        found = None
        for d in self.reverse_chain(self.tuse[w], self.writes_memory, leaves=True):
            if self.val_par.get(d, -1) != rw:
                found = d
                break
        self._par_def[w] = found
        return found

    def find_parallel(self, roots: list[int], writes: list[tuple[int, int]]) -> Conflict | None:
        """Parallel-region conflict of the alias sets ``roots`` (with ``writes``)."""
        if not writes:
            return None
        read = next((k for r in roots for k in self.reads_of(r)), None)
        if read is None:
            return None
        for w in writes:
            d = self.parallel_def(w)
            if d is not None:
                return Conflict("parallel", w, read=(-read[0], read[1]), write=w, definition=d)
        return None

    @property
    def prover(self):
        """The Z3 slice prover (engine/slices.py), created on first use."""
        if self._prover is None:
            from .slices import SliceProver

            self._prover = SliceProver(self)
        return self._prover

    def same_subset(self, ext: int, ins: int) -> bool:
        a, b = self.slices.get(ext, {}), self.slices.get(ins, {})
        if bool(a) and a == b:
            return True
        # mlir proves equal offsets/sizes/strides semantically (ValueBoundsConstraintSet),
        # e.g. %c1 + %c1 vs 2: Z3 does the same here, with or without --z3-slices
        return bool(a) and bool(b) and self.prover.equal(ext, ins)

    def matches_insert_dest(self, v: int, ins: int) -> bool:
        dest = self.tuse[(ins, self.subset_insert[ins][1])]

        def matching(x: int) -> bool:
            if x not in self.result_of:
                return False
            if ins in self.whole_insert:
                return self.equiv.find(x) == self.equiv.find(dest)
            e = self.result_of[x][0]
            if e not in self.subset_extract:
                return False
            src = self.tuse.get((e, self.subset_extract[e]))
            return (src is not None and self.equiv.find(src) == self.equiv.find(dest)
                    and self.same_subset(e, ins))

        found = self.reverse_chain(v, matching, leaves=True)
        return all(matching(x) for x in found)

    def non_conflicting_subsets(self, r: tuple[int, int], w: tuple[int, int]) -> bool:
        ro, wo = r[0], w[0]
        if ro in self.subset_insert:
            src, dst = self.subset_insert[ro]
            if r[1] == dst and self.matches_insert_dest(self.tuse[w], ro):
                return True
            if r[1] == src and w == (ro, dst) and self.matches_insert_dest(self.tuse[r], ro):
                return True
        if wo in self.subset_insert:
            src, dst = self.subset_insert[wo]
            sv = self.tuse[(wo, src)]
            if (w[1] == dst and self.equiv.find(self.tuse[r]) == self.equiv.find(sv)
                    and self.matches_insert_dest(sv, wo)):
                return True
        return False

    def has_equiv_in_chain(self, u: tuple[int, int], value: int) -> bool:
        target = self.equiv.find(value)
        return bool(self.reverse_chain(self.tuse[u], lambda x: self.equiv.find(x) == target,
                                       leaves=False, equiv_only=True))

    def find_raw(self, reads, writes) -> Conflict | None:
        for r in reads:
            defs = self.definitions(r)
            if not defs:
                continue
            for w in writes:
                if self.rep_chain_ok(r, w, defs):
                    if self.happens_before(r[0], w[0]):
                        continue
                    if r == w:
                        continue
                    if (self.graph_blocks and self.block_of[r[0]] in self.graph_blocks
                            and self.block_of[r[0]] == self.block_of[w[0]]):
                        continue  # graph region (in_parallel): no order between its ops
                    if self.exclusive_ops(r[0], w[0]):
                        continue
                    if (r[0] == w[0] and r in self.elementwise and w in self.elementwise
                            and (self.has_equiv_in_chain(r, self.tuse[w])
                                 or self.has_equiv_in_chain(w, self.tuse[r]))):
                        continue
                if self.non_conflicting_subsets(r, w):
                    continue
                if self.z3_slices and self.prover.disjoint(r, w):
                    continue
                w_aliases = self.aliases.get(w, ())
                for d in defs:
                    if d in self.result_of:
                        dop = self.result_of[d][0]
                        if self.happens_before(w[0], dop) or self.contains(dop, w[0]):
                            continue
                    elif not self.block_contains(self.bbarg_of[d][0], w[0]):
                        continue
                    if len(w_aliases) == 1 and w_aliases[0][0] == d:
                        continue
                    return Conflict("raw", w, read=r, write=w, definition=d)
        return None

    def collect(self, roots: list[int]):
        reads: dict[tuple[int, int], None] = {}
        writes: dict[tuple[int, int], None] = {}
        seen: set[int] = set()
        for root in roots:
            rt = self.alias.find(root)
            if rt in seen:
                continue
            seen.add(rt)
            for m in self.alias.set_of(root):
                for u in self.uses.get(m, ()):
                    if u in self.reads or u in self.read_via_alias:
                        reads[u] = None
                    if self.inplace.get(u) and self.is_write(u):
                        writes[u] = None
        return reads, writes, seen

    def try_inplace(self, u: tuple[int, int]) -> Conflict | None:
        """Conflict that bufferizing u in place would create (None: in place is safe).

        Decisions so far are conflict-free, so only pairs that u creates are checked:
        a read of one alias set with a write of another set being merged, or any read
        with u's own write. Reads come from per-set indexes, latest op first."""
        v = self.tuse[u]
        roots: list[int] = []
        for x in [v] + [a for a, _ in self.aliases.get(u, ())]:
            r = self.alias.find(x)
            if r not in roots:
                roots.append(r)
        is_w = self.is_write(u)
        if not is_w and len(roots) == 1:
            return None  # no new write and no new alias
        if self.z3_slices:
            self.prover.candidate = u
        writes = [self.set_writes.get(r, []) for r in roots]
        if (is_w or any(writes)) and any(self.readonly_of(r) for r in roots):
            for r in roots:
                for m in self.alias.members.get(r, [r]):
                    if m in self.not_writable:
                        return Conflict("not-writable", u, definition=m)
        own = [u] if is_w else []
        if self.has_parallel:
            c = self.find_parallel(roots, [w for ws in writes for w in ws] + own)
            if c is not None:
                c.use = u
                return c
        # writes of the other sets (+ u) per read's set
        others = [[w for j2, ws in enumerate(writes) if j2 != j for w in ws] + own
                  for j in range(len(roots))]
        if len(roots) == 1:
            order = ((k, 0) for k in self.reads_of(roots[0]))
        else:
            order = heapq.merge(*[zip(self.reads_of(r), repeat(j)) for j, r in enumerate(roots)
                                  if others[j]])
        it = iter(order)
        for (no, i), j in it:
            c = self.find_raw([(-no, i)], others[j])
            if c is None:
                continue
            # the same op may read this buffer through several operands, and several
            # writes may conflict: report the first in the documented order (alias set
            # of u's operand first, then of its aliases; members in set order)
            same = [((-no, i), j)]
            for (no2, i2), j2 in it:
                if no2 != no:
                    break
                same.append(((-no2, i2), j2))
            hits = [(r, j2, w) for r, j2 in same for w in others[j2]
                    if self.find_raw([r], [w]) is not None]
            if len(hits) == 1:
                return c
            pos = self._member_pos(roots, {self.tuse[x] for r, _, w in hits for x in (r, w)})
            r, _, _ = min(hits, key=lambda h: (h[1], pos[self.tuse[h[0]]], h[0][1]))
            ws = [w for r2, j2, w in hits if r2 == r]
            w = min(ws, key=lambda w: (w == u, pos.get(self.tuse[w], (len(roots), 0)), w))
            return self.find_raw([r], [w])
        return None

    def _member_pos(self, roots: list[int], values: set[int]) -> dict[int, tuple[int, int]]:
        """(index of the root in roots, position among its set's members) of each value."""
        pos: dict[int, tuple[int, int]] = {}
        for j, r in enumerate(roots):
            for k, m in enumerate(self.alias.members.get(r, [r])):
                if m in values:
                    pos[m] = (j, k)
        return pos

    # ------------------------------------------------------------------ driver
    def func_order(self) -> list[int]:
        """Functions with bodies, callees first (mlir: call graph order)."""
        body = {sym: f for sym, (f, decl) in self.funcs.items() if not decl}
        fop_sym = {f: s for s, f in body.items()}
        callees: dict[int, list[tuple[int, str]]] = defaultdict(list)
        for o, callee in sorted(self.calls.items()):
            f = self._enclosing_func(o)
            if f is not None and callee in body:
                callees[f].append((o, callee))
        order: list[int] = []
        state: dict[int, int] = {}

        def visit(f: int, stack: list[int]):
            if state.get(f) == 2:
                return
            if state.get(f) == 1:
                raise UserError(f"recursive call to '@{fop_sym[f]}' is not supported by "
                                "function-boundary bufferization", self._loc(stack[-1]))
            state[f] = 1
            for o, c in callees[f]:
                visit(body[c], stack + [o])
            state[f] = 2
            order.append(f)

        for f in sorted(body.values()):
            visit(f, [f])
        return order

    def check_supported(self) -> None:
        """Reject what mlir-opt 22's One-Shot analysis rejects (same message, located)."""
        for o, n in sorted(self.name.items()):
            if n != "scf.execute_region":
                continue
            yields = [y for y in range(o + 1, self.span[o] + 1)
                      if self.name.get(y) == "scf.yield" and self.parent_op.get(y) == o]
            if len(yields) > 1:
                raise UserError("'scf.execute_region' op op without unique scf.yield is not "
                                "supported", self._loc(o))

    def _enclosing_func(self, o: int) -> int | None:
        while o is not None and self.name.get(o) != "func.func":
            o = self.parent_op.get(o)
        return o

    def _loc(self, o: int) -> str:
        f, ln, c = self.loc.get(o, ("-", 0, 0))
        return f"{f}:{ln}:{c}"

    def func_ops(self, f: int) -> list[int]:
        """Ops with tensor semantics in f, reverse post-order (mlir's bottom-up heuristic)."""
        ops = [o for o in range(f + 1, self.span[f] + 1)
               if self.op_tuses.get(o) or any(v in self.tensor for v in self.results.get(o, ()))]
        ops.sort(key=lambda o: (-self.span[o], o))
        return ops

    def prepare_calls(self) -> None:
        """Call operand semantics from the callees' summaries (callee-first order)."""
        for o, callee in self.calls.items():
            s = self.summaries.get(callee)
            ent = self.funcs.get(callee)
            for i in self.op_tuses.get(o, ()):
                u = (o, i)
                if u in self.aliases:
                    continue
                if s is None:
                    if ent is not None and not ent[1]:
                        continue  # not analysed yet
                    self.call_writes.add(u)
                    for v in self.results.get(o, ()):
                        if v in self.tensor:
                            self._add_alias(u, v, "unknown")
                    self.aliases.setdefault(u, [])
                    continue
                if i in s["written"]:
                    self.call_writes.add(u)
                rets = s["aliasing"].get(i, [])
                eq = len(rets) == 1 and s["equiv"].get(rets[0]) == i
                for j in rets:
                    self._add_alias(u, self.results[o][j], "equivalent" if eq else "unknown")
                self.aliases.setdefault(u, [])

    def _add_alias(self, u, v, k):
        self.aliases[u].append((v, k))
        self.rev_alias[v].append((u, k))
        self._bmw.clear()
        self._defs.clear()
        self._par_def.clear()

    def summarize(self, f: int, sym: str) -> None:
        args = self.func_args.get(f, [])
        rets = []
        for r in self.func_returns.get(f, []):
            rets = [(j, self.tuse[(r, j)]) for j in self.op_tuses.get(r, ())]
        equiv: dict[int, int] = {}
        aliasing: dict[int, list[int]] = defaultdict(list)
        written: set[int] = set()
        for i, a in args:
            if a not in self.tensor:
                continue
            for j, rv in rets:
                if self.equiv.find(rv) == self.equiv.find(a):
                    equiv[j] = i
                if self.alias.find(rv) == self.alias.find(a):
                    aliasing[i].append(j)
            attr = self.access_attr.get((f, i))
            if attr is not None:
                w = attr in ("write", "read-write")
                rd = attr in ("read", "read-write")
            else:
                w = any(self.inplace.get(u) and self.is_write(u)
                        for m in self.alias.set_of(a) for u in self.uses.get(m, ()))
                rd = a in self.value_read
            if w:
                written.add(i)
            self.decisions.access[(f, i)] = ("read-write" if rd and w else "read" if rd
                                             else "write" if w else "none")
        for r in self.func_returns.get(f, []):
            if equiv:
                self.decisions.equivalent_args[r] = [equiv.get(j, -1) for j, _ in rets]
        # returned values that share a buffer (e.g. one tensor returned twice): the
        # caller's results alias each other (bufferlog, not mlir; README.md "In-place analysis")
        groups: dict[int, list[int]] = defaultdict(list)
        for j, rv in rets:
            groups[self.alias.find(rv)].append(j)
        ret_alias = [g for g in groups.values() if len(g) > 1]
        self.summaries[sym] = {"equiv": equiv, "aliasing": aliasing, "written": written,
                               "ret_alias": ret_alias}

    def alias_call_results(self, f: int) -> None:
        """Union the results of calls in ``f`` whose callee returns one buffer several times."""
        for o in self._calls_in().get(f, ()):
            s = self.summaries.get(self.calls[o])
            for group in (s or {}).get("ret_alias", ()):
                res = self.results[o]
                for j in group[1:]:
                    self.static_edges.append((res[group[0]], res[j], o))
                    self.union_alias(res[group[0]], res[j])

    def _calls_in(self) -> dict[int, list[int]]:
        ci = getattr(self, "_calls_in_cache", None)
        if ci is None:
            ci = defaultdict(list)
            for o in sorted(self.calls):
                f = self._enclosing_func(o)
                if f is not None:
                    ci[f].append(o)
            self._calls_in_cache = ci
        return ci

    def equivalence_pass(self, f: int) -> None:
        ops = sorted(range(f + 1, self.span[f] + 1), key=lambda o: (self.span[o], -o))
        for o in ops:
            for v in self.results.get(o, ()):
                if v not in self.tensor:
                    continue
                al = self.aliasing_operands(v)
                if not al:
                    continue
                first = self.tuse[al[0][0]]
                ok = all(self.kind(u, v, k) == "equivalent" and self.inplace.get(u)
                         and self.equiv.find(self.tuse[u]) == self.equiv.find(first)
                         for u, k in al)
                if ok:
                    self.equiv.union(v, first)

    def run(self, fixed: dict[tuple[int, int], bool] | None = None,
            recheck: bool = False) -> Decisions:
        """Analyse every function. ``fixed``: decisions to impose instead of deciding;
        ``recheck``: check each imposed in-place use with the decision loop's own test
        (``try_inplace``, in the decision order) and list what it finds in
        ``dec.violations``."""
        self.reset()
        self.check_supported()
        self.decisions = dec = Decisions()
        for u in sorted(self.must):
            self.bufferize_inplace(u)
        # bufferlog, not mlir: loop-carried values that may receive one buffer alias
        for d1, d2 in self.carried_alias:
            self.static_edges.append((d1, d2, None))
            self.union_alias(d1, d2)
        for f in self.func_order():
            sym = next(s for s, (g, _) in self.funcs.items() if g == f)
            self.prepare_calls()
            self.alias_call_results(f)
            for o in self.func_ops(f):
                for i in self.op_tuses.get(o, ()):
                    u = (o, i)
                    if u in self.must:
                        continue
                    dec.order.append(u)
                    if fixed is not None:
                        if fixed.get(u, True):
                            if recheck:
                                c = self.try_inplace(u)
                                if c is not None:
                                    dec.violations.append((c, []))
                            self.bufferize_inplace(u)
                        else:
                            self.inplace[u] = False
                        continue
                    c = self.try_inplace(u)
                    if c is None:
                        self.bufferize_inplace(u)
                    else:
                        self.inplace[u] = False
                        dec.conflicts[u] = c
            self.equivalence_pass(f)
            self.summarize(f, sym)
        self.prepare_calls()
        for sym, (f, decl) in self.funcs.items():
            if decl:
                for o, callee in self.calls.items():
                    if callee == sym:
                        for i in self.op_tuses.get(o, ()):
                            dec.access[(f, i)] = "read-write"
        for u in self.tuse:
            if u not in self.inplace and self.name[u[0]] != "func.func":
                # ops outside any function body (none in valid input) stay in place
                self.inplace[u] = u in self.must
        dec.inplace = dict(self.inplace)
        return dec

    # ------------------------------------------------------------------ re-check
    def check_assignment(self, inplace: dict[tuple[int, int], bool]) -> list[tuple[Conflict, list]]:
        """Conflicts of a complete assignment, each with the in-place uses that cause it.

        The assignment is replayed in the decision order through ``run`` -- the same
        state as oneshot's (call semantics from this run's callee summaries, loop
        equivalences, carried/returned-twice aliases, read-only values) -- and every
        in-place use is tested with ``try_inplace``, the very check that decides
        oneshot's uses. Then each final alias set is checked as a whole (its reads
        against its in-place writes, read-only members against writes) under the final
        equivalences. A use that oneshot would refuse at its turn is never accepted."""
        dec = self.run(fixed=inplace, recheck=True)
        found = [c for c, _ in dec.violations]
        seen: set[int] = set()
        for u, ip in dec.inplace.items():
            if not ip:
                continue
            root = self.alias.find(self.tuse[u])
            if root in seen:
                continue
            seen.add(root)
            reads, writes, _ = self.collect([self.tuse[u]])
            members = self.alias.set_of(self.tuse[u])
            nw = next((m for m in members if m in self.not_writable), None)
            if writes and nw is not None:
                found.append(Conflict("not-writable", next(iter(writes)), definition=nw))
                continue
            c = self.find_raw(sorted(reads, key=lambda x: -x[0]), list(writes))
            if c is None and self.has_parallel and reads:
                w = next((w for w in writes if self.parallel_def(w) is not None), None)
                if w is not None:
                    c = Conflict("parallel", w, read=next(iter(reads)), write=w,
                                 definition=self.parallel_def(w))
            if c is not None:
                found.append(c)
        return [(c, self.cause(c)) for c in found]

    def _alias_graph(self) -> dict[int, list]:
        """Final alias sets as a graph: value -> [(value, in-place use joining them, or
        ("call", o) for returned-twice results of call o, or None)]."""
        g: dict[int, list] = defaultdict(list)
        for x, ip in self.inplace.items():
            if ip:
                for a, _ in self.aliases.get(x, ()):
                    g[self.tuse[x]].append((a, x))
                    g[a].append((self.tuse[x], x))
        for a, b, o in self.static_edges:
            lab = None if o is None else ("call", o)
            g[a].append((b, lab))
            g[b].append((a, lab))
        return g

    @staticmethod
    def _path(g, src: int, goal) -> tuple[int | None, list]:
        """Shortest alias path from value src to a value satisfying goal: (value, edges)."""
        prev: dict[int, tuple | None] = {src: None}
        work = [src]
        for v in work:
            if goal(v):
                hit, edges = v, []
                while prev[v] is not None:
                    v, x = prev[v]
                    if x is not None:
                        edges.append(x)
                return hit, edges
            for b, x in g.get(v, ()):
                if b not in prev:
                    prev[b] = (v, x)
                    work.append(b)
        return None, []

    def _write_path(self, g, start: int, extra: tuple[int, int] | None = None):
        """In-place write reached from value start by the shortest alias path: (write, edges)."""
        wvals = {self.tuse[x]: x for x, ip in self.inplace.items() if ip and self.is_write(x)}
        if extra is not None and self.is_write(extra):
            wvals.setdefault(self.tuse[extra], extra)
        hit, edges = self._path(g, start, lambda v: v in wvals)
        return wvals.get(hit, extra), edges

    def cause(self, c: Conflict) -> list[tuple[int, int]]:
        """In-place uses whose decisions make conflict ``c`` (all in place again: the same
        alias path and write, hence the same conflict): the write and the uses on the
        shortest alias path from the read (or the read-only value) to the write; for a
        call among them, what makes its callee write that argument or alias that result
        (the callee's own paths, recursively)."""
        g = self._alias_graph()
        if c.kind in ("raw", "parallel"):
            _, edges = self._path(g, self.tuse[c.read], lambda v: v == self.tuse[c.write])
            w = c.write
        else:
            w, edges = self._write_path(g, c.definition, c.use)
        out: dict[tuple[int, int], None] = {}
        self._expand(g, [(w, True), *((e, False) for e in edges)], out, set())
        return list(out)

    def _expand(self, g, items, out: dict, seen: set) -> None:
        """Add the uses of items ((use, it writes) or ("call", o)) and what their call
        semantics rest on to out."""
        body = {sym: f for sym, (f, decl) in self.funcs.items() if not decl}
        for x, writes in items:
            if x is None or (x, writes) in seen:
                continue
            seen.add((x, writes))
            if x[0] == "call":  # results returned twice: the callee's paths between them
                o = x[1]
                f = body.get(self.calls[o])
                rets = [self.tuse[(r, j)] for r in self.func_returns.get(f, ())
                        for j in self.op_tuses.get(r, ())]
                for a in rets:
                    for b in rets:
                        if a < b and self.alias.find(a) == self.alias.find(b):
                            _, e = self._path(g, a, lambda v, b=b: v == b)
                            self._expand(g, [(y, False) for y in e], out, seen)
                continue
            if x not in self.must:
                out[x] = None
            o, i = x
            f = body.get(self.calls.get(o))
            if f is None:
                continue
            arg = next((v for k, v in self.func_args.get(f, ()) if k == i), None)
            if arg is None:
                continue
            if writes and (f, i) not in self.access_attr and x in self.call_writes:
                w, e = self._write_path(g, arg)
                self._expand(g, [(w, True), *((y, False) for y in e)], out, seen)
            if not writes or self.inplace.get(x):
                # x aliases call results: the callee returns values of arg's alias set
                for r in self.func_returns.get(f, ()):
                    for j in self.op_tuses.get(r, ()):
                        rv = self.tuse[(r, j)]
                        if self.alias.find(rv) == self.alias.find(arg):
                            _, e = self._path(g, arg, lambda v, rv=rv: v == rv)
                            self._expand(g, [(y, False) for y in e], out, seen)

    def copy_bytes(self, u: tuple[int, int]) -> int:
        v = self.tuse[u]
        return self.bytes.get(v, DYNAMIC_BYTES)


def analyze_module(module, strategy: str = "oneshot", engine: str = "auto", rules_dir=None,
                   z3_slices: bool | None = None):
    """Facts, analysis state and decisions for a parsed module. ``z3_slices``: drop
    conflicts between Z3-proven equal/disjoint slices (None: on for ``optimal`` only)."""
    if z3_slices is None:
        z3_slices = strategy == "optimal"
    from bufferlog.frontend.facts import export

    facts = export(module)
    rel = derive(facts.rows, engine=engine, rules_dir=rules_dir)
    an = Analysis(facts.rows, rel)
    an.z3_slices = z3_slices
    dec = an.run()
    if strategy == "optimal":
        from .optimal import optimize

        dec = optimize(an, dec)
    return facts, an, dec


def operand_annotations(an: Analysis, dec: Decisions) -> dict[int, list[str]]:
    """``__inplace_operands_attr__`` values per op (ops with tensor operands)."""
    out: dict[int, list[str]] = {}
    for o in sorted(an.op_tuses):
        if an.name[o] == "func.func":
            continue
        out[o] = ["none" if (o, i) not in an.tuse else
                  ("true" if dec.inplace.get((o, i), False) else "false")
                  for i in range(an.n_operands[o])]
    return out
