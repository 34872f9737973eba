"""Structural verifier: what MLIR's verifier rejects that parsing alone does not catch.

``verify_module(module)`` runs once per parse (the last step of ``parser.parse``) and
raises the parser's located ``MLIRSyntaxError`` at the offending op. One walk over the
IR, linear in its size, checks:

* **Dominance** -- every operand's definition properly dominates its use: earlier in
  the same block, or an argument / earlier op of an enclosing block, or (in multi-block
  regions) in a block that dominates the use's block (dominator tree of the successor
  graph, Cooper-Harvey-Kennedy). As in MLIR, operands of ops directly in unreachable
  blocks are not checked and a use nested in an unreachable block accepts any value of
  the region's other blocks; the module body and a single-block region of an unknown op
  are graph regions (no order needed).
* **Terminators** -- a known terminator (``func.return``, ``scf.yield``, ``cf.br``, ...)
  must be the last op of its block; ops with successors must be last; every block of a
  known op's region must end in a terminator (an unknown op counts as a possible
  terminator, and single-block regions of unknown ops need none); empty blocks; known
  single-block ops (``scf.for``, ``linalg.generic``, ...) have at most one block.
* **Parents** -- terminators and ops tied to a parent (``func.return`` in ``func.func``,
  ``scf.yield`` in scf ops, ``tensor.yield`` in ``tensor.generate``/``pad``,
  ``linalg.yield``/``linalg.index`` in linalg ops, ``tensor.parallel_insert_slice`` in
  ``scf.forall.in_parallel``, ...); a bare ``return``/``call`` needs ``func.func`` as its
  direct parent (MLIR's default dialect), e.g. not at module level.
* **Region signatures** -- block arguments and yielded values against the op: ``func``
  results and entry arguments, ``cf.br``/``cf.cond_br`` successor operands, ``scf.for``
  iter_args, ``scf.if``/``while``/``execute_region``/``index_switch`` yields,
  ``linalg.generic``/``map``/``reduce`` body arguments and yields, ``tensor.generate``/
  ``pad`` bodies.
* **Symbols and a few exact op rules** -- unique ``sym_name`` per module, ``func.call``
  against its callee's signature, ``memref.get_global`` targets, public declarations;
  index counts of load/store/extract/insert, dynamic-size counts of ``tensor.empty`` /
  ``memref.alloc(a)``, slices (``verify_slices.py``: offset/size/stride lists against
  the sliced type, the result type against the sizes, static bounds), the math ops'
  same-type rule, ``materialize_in_destination``'s ``writable``.

Unknown (unregistered, generic-form) ops are never guessed about: their regions get only
the checks MLIR applies to every op, and an unknown op may be a terminator. Messages and
locations follow mlir-opt's (an op is located at its name); order follows MLIR's too:
an op's own rules before its regions, region rules (yields) after them, dominance last.
The parser itself adds the SSA type checks: a use whose stated type differs from the
value's, a forward reference whose definition has another type, and redefined aliases.
"""

from __future__ import annotations

from collections.abc import Generator

from bufferlog.core.records import replace
from bufferlog.core.regex import compile as compile_regex

from . import attrs as A
from . import types as T
from .dialects import PRINTERS, load_all
from .ir import Block, BlockArg, Loc, Module, Op, OpResult, Region, Value
from .parser import ISOLATED_OPS, MLIRSyntaxError
from .trampoline import drive

TYPE_CHECKING = False  # typing serves annotations only: importing it costs ~4 ms a run
if TYPE_CHECKING:
    from typing import Any

#: ops with MLIR's IsTerminator trait among those we know
TERMINATORS = frozenset({
    "func.return", "cf.br", "cf.cond_br", "cf.switch", "scf.yield", "scf.condition",
    "scf.forall.in_parallel", "scf.reduce", "scf.reduce.return", "linalg.yield",
    "tensor.yield", "memref.alloca_scope.return", "affine.yield",
})

#: known ops whose single-block regions need no terminator (NoTerminator)
NO_TERMINATOR = frozenset({"builtin.module", "scf.forall.in_parallel"})

#: known ops whose regions hold at most one block (SingleBlock)
SINGLE_BLOCK = frozenset({
    "builtin.module", "scf.for", "scf.if", "scf.while", "scf.index_switch", "scf.forall",
    "scf.forall.in_parallel", "linalg.generic", "linalg.map", "linalg.reduce",
    "tensor.generate", "tensor.pad", "memref.alloca_scope", "affine.for", "affine.if",
})

#: region lists of known ops: (ODS region name, holds exactly one block); count checked
REGIONS: dict[str, tuple[tuple[str, bool], ...]] = {
    "func.func": (("body", False),),
    "scf.for": (("region", True),),
    "scf.if": (("thenRegion", True), ("elseRegion", False)),
    "scf.while": (("before", True), ("after", True)),
    "scf.forall": (("region", True),),
    "scf.forall.in_parallel": (("region", True),),
    "scf.execute_region": (("region", False),),
    "linalg.map": (("mapper", True),),
    "linalg.reduce": (("combiner", True),),
    "tensor.generate": (("body", True),),
    "tensor.pad": (("region", True),),
    "memref.alloca_scope": (("bodyRegion", True),),
    "affine.for": (("region", True),),
    "affine.if": (("thenRegion", True), ("elseRegion", False)),
}

#: ops whose implicit terminator the builders do not materialise (checked by the op)
IMPLICIT_YIELD_OPS = frozenset({"tensor.generate", "tensor.pad"})

#: ops whose regions are graph regions (no dominance inside)
GRAPH_REGION_OPS = frozenset({"builtin.module"})

_SCF_YIELD_PARENTS = ("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while")

#: HasParent / ParentOneOf constraints: op -> allowed parent op names
PARENTS: dict[str, tuple[str, ...]] = {
    "func.return": ("func.func",),
    "scf.yield": _SCF_YIELD_PARENTS,
    "scf.condition": ("scf.while",),
    "scf.forall.in_parallel": ("scf.forall",),
    "tensor.yield": ("tensor.generate", "tensor.pad"),
    "memref.alloca_scope.return": ("memref.alloca_scope",),
    "scf.reduce": ("scf.parallel",),
    "scf.reduce.return": ("scf.reduce",),
}

_SHAPED = (T.TensorType, T.UnrankedTensorType, T.MemRefType, T.UnrankedMemRefType,
           T.VectorType)

#: ``%a, %b:2 = `` before an op name (MLIR locates ops at their name)
_RESULT_BINDING = compile_regex(r"(?:%[\w$.\-]+(?::\d+)?\s*,\s*)*%[\w$.\-]+(?::\d+)?\s*=\s*")
_BARE_NAME = compile_regex(r"(?:%[\w$.\-]+(?::\d+)?\s*,\s*)*(?:%[\w$.\-]+(?::\d+)?\s*=\s*)?"
                        r"([\w.$\-]+)")

_known_cache: frozenset[str] | None = None

#: math ops without SameOperandsAndResultType
_MATH_MIXED_TYPES = frozenset({"math.fpowi", "math.isfinite", "math.isinf", "math.isnan",
                               "math.isnormal"})


def known_ops() -> frozenset[str]:
    """Op names the frontend knows (custom syntax or listed here): their traits are
    modelled; every other name is an unknown op."""
    global _known_cache
    if _known_cache is None:
        load_all()
        _known_cache = frozenset(PRINTERS) | TERMINATORS | {"memref.alloca_scope"}
        from .dialects import transform
        from .dialects.vector import REQUIRED, verify_op
        from .verify_affine import ENTRY, EXIT
        from .verify_shapes import CHECKS
        _ENTRY_CHECKS[transform.NAME] = transform.verify
        from .dialects.linalg import NAMED_OPS
        for name in NAMED_OPS:
            _ENTRY_CHECKS.setdefault(name, _linalg_structured)
        for name, check in ENTRY.items():
            _ENTRY_CHECKS[name] = _dialect_check(check)
        for name, check in EXIT.items():
            _EXIT_CHECKS[name] = _dialect_check(check)
        for name in REQUIRED:
            _ENTRY_CHECKS[name] = _dialect_check(verify_op)
        for name, check in CHECKS.items():
            _ENTRY_CHECKS[name] = _dialect_check(check)
        for name in _known_cache:
            if name.startswith("math.") and name not in _MATH_MIXED_TYPES:
                _ENTRY_CHECKS.setdefault(name, _same_type)
    return _known_cache


def elem_or_self(t: Any) -> Any:
    """MLIR's getElementTypeOrSelf."""
    return t.elem if isinstance(t, _SHAPED) else t


_MAP = compile_regex(r"\(([^()\[\]]*)\)->\(([^()]*)\)")


def _norm(t: Any) -> Any:
    """A type with spelling-only differences removed (affine-map aliases, spaces, an
    identity layout map, which MLIR drops)."""
    if isinstance(t, T.MemRefType) and isinstance(t.layout, A.AffineMapAttr):
        text = t.layout.text.replace(" ", "")
        m = _MAP.fullmatch(text)
        layout = None if m and m.group(1) == m.group(2) else A.AffineMapAttr(text)
        return replace(t, layout=layout, elem=_norm(t.elem))
    if isinstance(t, T.TensorType | T.MemRefType | T.VectorType | T.UnrankedTensorType
                  | T.UnrankedMemRefType | T.ComplexType):
        return replace(t, elem=_norm(t.elem))
    if isinstance(t, T.FunctionType):
        return T.FunctionType(tuple(map(_norm, t.inputs)), tuple(map(_norm, t.results)))
    if isinstance(t, T.TupleType):
        return T.TupleType(tuple(map(_norm, t.elems)))
    return t


def same_type(a: Any, b: Any) -> bool:
    """Type equality up to spelling (``#map`` alias vs the map it names)."""
    if a == b:
        return True
    try:
        return _norm(a) == _norm(b)
    except (TypeError, ValueError):  # pragma: no cover - exotic type objects
        return False


def verify_module(module: Module) -> None:
    """Raise ``MLIRSyntaxError`` at the first structural error of ``module``."""
    _Verifier(module).run()


class _Verifier:
    def __init__(self, module: Module):
        self.module = module
        self.lines = module.source_lines
        self.known = known_ops()
        self.vis: set[Value] = set()  # values that dominate the current point
        self.wild: list[tuple[Region, Block]] = []  # enclosing unreachable blocks
        self.dom_errors: list[tuple[Op, int]] = []
        self.symtabs: list[dict[str, Op] | None] = []  # enclosing symbol tables

    # -- errors -----------------------------------------------------------------------
    def loc(self, op: Op) -> Loc:
        """The op's location at its name (after any ``%r =``), as mlir-opt reports."""
        loc = op.loc
        if 0 < loc.line <= len(self.lines):
            m = _RESULT_BINDING.match(self.lines[loc.line - 1], loc.col - 1)
            if m:
                return Loc(loc.file, loc.line, m.end() + 1)
        return loc

    def fail(self, op: Op, msg: str) -> None:
        raise MLIRSyntaxError(msg, self.loc(op))

    def op_fail(self, op: Op, msg: str) -> None:
        self.fail(op, f"'{op.name}' op {msg}")

    def source_text(self, op: Op) -> str:
        loc = op.loc
        if 0 < loc.line <= len(self.lines):
            s = self.lines[loc.line - 1][loc.col - 1:].strip()
            if s:
                return s if len(s) <= 120 else s[:117] + "..."
        return f'"{op.name}"'

    def spelled(self, op: Op) -> str | None:
        """The op name as written at its location (``return`` vs ``func.return``)."""
        loc = op.loc
        if 0 < loc.line <= len(self.lines):
            m = _BARE_NAME.match(self.lines[loc.line - 1], loc.col - 1)
            if m:
                return m.group(1)
        return None

    # -- driver -----------------------------------------------------------------------
    def run(self) -> None:
        top = self.module.module_op
        self.check_single_block(top)
        drive(self.visit_regions(top, True))
        if self.dom_errors:
            op, i = min(self.dom_errors, key=lambda e: (e[0].loc.line, e[0].loc.col))
            self.fail(op, f"operand #{i} does not dominate this use")

    def visit_block(self, block: Block, parent: Op, check_operands: bool,
                    need_terminator: bool) -> Generator[Any, None, None]:
        """Visit the ops of ``block`` in order: operands dominate (when checked), the
        op's own rules, its regions, then the rules over its regions (MLIR's order:
        traits and verify() on entry, verifyRegions() on exit); each op's results
        become visible after it. Finally the block must end in a (possible)
        terminator when ``need_terminator``. (Generators here yield where they would
        recurse into a nested region: ``frontend/trampoline.py``.)"""
        vis = self.vis
        ops = block.ops
        if not ops:
            if need_terminator:
                self.fail(parent, "empty block: expect at least a terminator")
            return
        last = len(ops) - 1
        pname = parent.name
        known = self.known
        for k, op in enumerate(ops):
            if check_operands:
                for i, v in enumerate(op.operands):
                    if v not in vis and not self.wild_ok(v):
                        self.dom_errors.append((op, i))
            name = op.name
            if op.successors:
                if k != last:
                    self.fail(op, "operation with block successors must terminate its "
                                  "parent block")
                if name in ("cf.br", "cf.cond_br"):
                    self.check_branch(op)
            is_known = name in known
            if is_known:
                allowed = PARENTS.get(name)
                if allowed is not None and pname not in allowed:
                    self.parent_error(op, allowed)
                if k != last and name in TERMINATORS:
                    self.op_fail(op, "must be the last operation in the parent block")
                if name in REGIONS or name == "scf.index_switch":
                    self.check_regions(op)
                if name in SINGLE_BLOCK:
                    self.check_single_block(op)
                chk = _ENTRY_CHECKS.get(name)
                if chk is not None:
                    chk(self, op, parent)
            if op.regions:
                yield self.visit_regions(op, is_known)
                if is_known:
                    chk = _EXIT_CHECKS.get(name)
                    if chk is not None:
                        chk(self, op, parent)
            if op.results:
                vis.update(op.results)
        if need_terminator:
            t = ops[-1]
            if t.name in known and t.name not in TERMINATORS:
                self.fail(t, "block with no terminator, has " + self.source_text(t))

    def wild_ok(self, v: Value) -> bool:
        """True when ``v`` is defined in another block of a region whose unreachable
        block encloses the use (MLIR: an unreachable block is dominated by anything)."""
        if not self.wild:
            return False
        if isinstance(v, OpResult):
            blk = v.op.parent
        elif isinstance(v, BlockArg):
            blk = v.block
        else:
            return False
        if blk is None:
            return False
        reg = blk.parent
        return any(reg is r and blk is not u for r, u in self.wild)

    def visit_regions(self, op: Op, known: bool) -> Generator[Any, None, None]:
        name = op.name
        isolated = name in ISOLATED_OPS
        if isolated:
            saved, saved_wild = self.vis, self.wild
            self.vis, self.wild = set(), []
        symtab = name == "builtin.module" or not known
        if symtab:  # an unknown op may be a symbol table itself: lookups give up inside
            self.symtabs.append(self.symbol_table(op) if known else None)
        try:
            for region in op.regions:
                blocks = region.blocks
                if not blocks:
                    continue
                # MLIR: the module's body, and a single-block region of an unregistered
                # op, may be graph regions (no dominance among their ops)
                graph = name in GRAPH_REGION_OPS or (not known and len(blocks) == 1)
                if len(blocks) == 1:
                    b = blocks[0]
                    if b.ops and b.ops[-1].successors and b in b.ops[-1].successors:
                        self.fail(op, "entry block of region may not have predecessors")
                    self.vis.update(b.args)
                    if graph:
                        for o in b.ops:
                            if o.results:
                                self.vis.update(o.results)
                    # single-block regions of unknown / NoTerminator ops need no terminator
                    yield self.visit_block(b, op, not graph, known and name not in NO_TERMINATOR
                                           and name not in IMPLICIT_YIELD_OPS)
                    if not isolated:
                        self.drop(b)
                else:
                    yield self.visit_cfg(op, region, graph)
        finally:
            if isolated:
                self.vis, self.wild = saved, saved_wild
            if symtab:
                self.symtabs.pop()

    def symbol_table(self, op: Op) -> dict[str, Op]:
        """``sym_name`` -> op over the body of a symbol-table op; names are unique."""
        table: dict[str, Op] = {}
        for r in op.regions:
            for b in r.blocks:
                for o in b.ops:
                    sym = o.attrs.get("sym_name")
                    if isinstance(sym, A.StringAttr):
                        if sym.value in table:
                            self.fail(o, f"redefinition of symbol named '{sym.value}'")
                        table[sym.value] = o
        return table

    def lookup(self, ref: Any, kind: str) -> Op | None | bool:
        """The op a flat symbol reference names in the nearest symbol table, None when
        it names no op of ``kind``; False when we cannot tell (nested reference)."""
        table = self.symtabs[-1] if self.symtabs else None
        if not isinstance(ref, A.SymbolRefAttr) or ref.nested or table is None:
            return False
        target = table.get(ref.root)
        return target if target is not None and target.name == kind else None

    def drop(self, b: Block) -> None:
        vis = self.vis
        vis.difference_update(b.args)
        for o in b.ops:
            if o.results:
                vis.difference_update(o.results)

    def visit_cfg(self, op: Op, region: Region, graph: bool) -> Generator[Any, None, None]:
        """A multi-block region: visit blocks in dominator-tree order, so exactly the
        values of dominating blocks are visible; unreachable blocks last."""
        blocks = region.blocks
        n = len(blocks)
        index = {b: i for i, b in enumerate(blocks)}
        succ: list[list[int]] = []
        for b in blocks:
            t = b.ops[-1] if b.ops else None
            if t is None or not t.successors:
                succ.append([])
                continue
            ss = [index[s] for s in t.successors if s in index]
            if 0 in ss:
                self.fail(op, "entry block of region may not have predecessors")
            succ.append(ss)
        children, reachable = _dominators(n, succ)
        if graph:
            for b in blocks:
                self.vis.update(b.args)
                for o in b.ops:
                    if o.results:
                        self.vis.update(o.results)
        # iterative dominator-tree walk: ("enter", i) / ("exit", i)
        stack: list[tuple[bool, int]] = [(True, 0)]
        while stack:
            enter, i = stack.pop()
            b = blocks[i]
            if not enter:
                self.drop(b)
                continue
            self.vis.update(b.args)
            yield self.visit_block(b, op, not graph, True)
            stack.append((False, i))
            for c in reversed(children[i]):
                stack.append((True, c))
        for i, b in enumerate(blocks):
            if reachable[i]:
                continue
            self.wild.append((region, b))
            self.vis.update(b.args)
            yield self.visit_block(b, op, False, True)
            self.drop(b)
            self.wild.pop()

    # -- structure ----------------------------------------------------------------------
    def parent_error(self, op: Op, allowed: tuple[str, ...]) -> None:
        name = op.name
        if name == "func.return" and self.spelled(op) == "return":
            self.bare_unknown(op, "return")
        if len(allowed) == 1:
            self.op_fail(op, f"expects parent op '{allowed[0]}'")
        self.op_fail(op, "expects parent op to be one of '" + ", ".join(allowed) + "'")

    def bare_unknown(self, op: Op, word: str) -> None:
        parent = op.parent_op
        where = ("at module level" if parent is None or parent.name == "builtin.module"
                 else f"inside '{parent.name}'")
        self.fail(op, f"custom op '{word}' is unknown {where} (the 'func' default dialect "
                      f"applies only directly inside func.func; write 'func.{word}')")

    def check_regions(self, op: Op) -> None:
        """The op's number of regions and its one-block regions (generic form)."""
        name = op.name
        if name == "scf.index_switch":
            spec = (("defaultRegion", True),) + (("caseRegions", True),) * (len(op.regions) - 1)
        else:
            spec = REGIONS[name]
        if len(op.regions) != len(spec):
            self.op_fail(op, "requires one region" if len(spec) == 1
                         else f"expected {len(spec)} regions")
        for i, ((rname, sized), r) in enumerate(zip(spec, op.regions, strict=True)):
            if sized and len(r.blocks) != 1:
                self.op_fail(op, f"region #{i} ('{rname}') failed to verify constraint: "
                                 "region with 1 blocks")
        if name == "scf.execute_region" and op.regions and not op.regions[0].blocks:
            self.op_fail(op, "region needs to have at least one block")

    def check_single_block(self, op: Op) -> None:
        """SingleBlock: at most one block per region, not empty unless NoTerminator."""
        for i, r in enumerate(op.regions):
            if len(r.blocks) > 1:
                self.op_fail(op, f"expects region #{i} to have 0 or 1 blocks")
            if (r.blocks and not r.blocks[0].ops and op.name not in NO_TERMINATOR
                    and op.name not in IMPLICIT_YIELD_OPS):
                self.op_fail(op, "expects a non-empty block")

    def check_branch(self, op: Op) -> None:
        for i, blk in enumerate(op.successors):
            vals = op.successor_operands(i)
            if len(vals) != len(blk.args):
                self.fail(op, f"branch has {len(vals)} operands for successor #{i}, but "
                              f"target block has {len(blk.args)}")
            for j, (v, a) in enumerate(zip(vals, blk.args, strict=True)):
                if not same_type(v.type, a.type):
                    self.fail(op, f"type mismatch for bb argument #{j} of successor #{i} "
                                  f"('{v.type}' vs '{a.type}')")

    def edge(self, op: Op, src: Op, dst: str, vals: list[Value], want: list[Any]) -> None:
        """RegionBranchOpInterface: values forwarded along a control-flow edge."""
        head = f"along control flow edge from Operation {src.name} to {dst}: "
        if len(vals) != len(want):
            self.op_fail(op, head + f"region branch point has {len(vals)} operands, but "
                                    f"region successor needs {len(want)} inputs")
        for i, (v, t) in enumerate(zip(vals, want, strict=True)):
            if not same_type(v.type, t):
                self.op_fail(op, head + f"successor operand type #{i} '{v.type}' should "
                                        f"match successor input type #{i} '{t}'")


# -------------------------------------------------------------------------------------
# dominators

def _dominators(n: int, succ: list[list[int]]) -> tuple[list[list[int]], list[bool]]:
    """(dominator-tree children, reachable) of blocks 0..n-1 with entry 0
    (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm")."""
    reachable = [False] * n
    reachable[0] = True
    post: list[int] = []
    stack = [(0, iter(succ[0]))]
    while stack:
        b, it = stack[-1]
        for s in it:
            if not reachable[s]:
                reachable[s] = True
                stack.append((s, iter(succ[s])))
                break
        else:
            stack.pop()
            post.append(b)
    num = [-1] * n
    for i, b in enumerate(post):
        num[b] = i
    preds: list[list[int]] = [[] for _ in range(n)]
    for b in post:
        for s in succ[b]:
            preds[s].append(b)
    rpo = post[::-1]
    idom = [-1] * n
    idom[0] = 0
    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            new = -1
            for p in preds[b]:
                if idom[p] == -1:
                    continue
                if new == -1:
                    new = p
                    continue
                x, y = p, new
                while x != y:
                    while num[x] < num[y]:
                        x = idom[x]
                    while num[y] < num[x]:
                        y = idom[y]
                new = x
            if idom[b] != new:
                idom[b] = new
                changed = True
    children: list[list[int]] = [[] for _ in range(n)]
    for b in rpo[1:]:
        children[idom[b]].append(b)
    return children, reachable


# -------------------------------------------------------------------------------------
# per-op checks: fn(verifier, op, parent_op), run when the op is visited

def _entry(op: Op, i: int = 0) -> Block | None:
    if i >= len(op.regions) or not op.regions[i].blocks:
        return None
    return op.regions[i].blocks[0]


def _last(b: Block | None) -> Op | None:
    return b.ops[-1] if b is not None and b.ops else None


def _func(v: _Verifier, op: Op, parent: Op) -> None:
    ft = op.attrs.get("function_type")
    entry = _entry(op)
    if entry is None:
        vis = op.attrs.get("sym_visibility")
        if not isinstance(vis, A.StringAttr) or vis.value == "public":
            v.op_fail(op, "symbol declaration cannot have public visibility")
    if entry is None or not isinstance(ft, A.TypeAttr) or not isinstance(ft.type, T.FunctionType):
        return
    ins = ft.type.inputs
    if len(entry.args) != len(ins):
        v.op_fail(op, f"entry block must have {len(ins)} arguments to match function "
                      "signature")
    for i, (a, t) in enumerate(zip(entry.args, ins, strict=True)):
        if not same_type(a.type, t):
            v.op_fail(op, f"type of entry block argument #{i}('{a.type}') must match the "
                          f"type of the corresponding argument in function signature('{t}')")


def _return(v: _Verifier, op: Op, parent: Op) -> None:
    if parent.name != "func.func":
        return  # the parent check reports it
    ft = parent.attrs.get("function_type")
    if not isinstance(ft, A.TypeAttr) or not isinstance(ft.type, T.FunctionType):
        return
    res = ft.type.results
    sym = parent.attrs.get("sym_name")
    fname = "@" + (sym.value if isinstance(sym, A.StringAttr) else "?")
    vals = op.operands
    if len(vals) != len(res):
        v.op_fail(op, f"has {len(vals)} operands, but enclosing function ({fname}) returns "
                      f"{len(res)}")
    for i, (x, t) in enumerate(zip(vals, res, strict=True)):
        if not same_type(x.type, t):
            v.fail(op, f"type of return operand {i} ('{x.type}') doesn't match function "
                       f"result type ('{t}') in function {fname}")


def _for(v: _Verifier, op: Op, parent: Op) -> None:
    body = _entry(op)
    t = _last(body)
    if body is None or t is None or t.name != "scf.yield":
        return
    iters = body.args[1:]
    ys = t.operands
    if len(iters) != len(ys):
        v.op_fail(op, f"different number of region iter_args and yielded values: "
                      f"{len(iters)} != {len(ys)}")
    for i, (a, y) in enumerate(zip(iters, ys, strict=True)):
        if not same_type(a.type, y.type):
            v.op_fail(op, f"{i}-th region iter_arg and {i}-th yielded value have different "
                          f"type: '{a.type}' != '{y.type}'")


def _if(v: _Verifier, op: Op, parent: Op) -> None:
    if op.results and (len(op.regions) < 2 or not op.regions[1].blocks):
        v.op_fail(op, "must have an else block if defining values")
    for i, r in enumerate(op.regions):
        if r.blocks and r.blocks[0].args:
            v.op_fail(op, f"region #{i} should have no arguments")


def _if_yields(v: _Verifier, op: Op, parent: Op) -> None:
    want = [r.type for r in op.results]
    for r in op.regions:
        t = _last(r.blocks[0] if r.blocks else None)
        if t is not None and t.name == "scf.yield":
            v.edge(op, t, "parent", t.operands, want)


def _while(v: _Verifier, op: Op, parent: Op) -> None:
    before, after = _entry(op, 0), _entry(op, 1)
    cond, yld = _last(before), _last(after)
    if before is not None and (cond is None or cond.name != "scf.condition"):
        v.op_fail(op, "expects the 'before' region to terminate with 'scf.condition'")
    if after is not None and (yld is None or yld.name != "scf.yield"):
        v.op_fail(op, "expects the 'after' region to terminate with 'scf.yield'")
    if cond is not None:
        fwd = cond.operands[1:]
        v.edge(op, cond, "parent", fwd, [r.type for r in op.results])
        if after is not None:
            v.edge(op, cond, "Region #1", fwd, [a.type for a in after.args])
    if yld is not None and before is not None:
        v.edge(op, yld, "Region #0", yld.operands, [a.type for a in before.args])


def _execute_region(v: _Verifier, op: Op, parent: Op) -> None:
    want = [r.type for r in op.results]
    for r in op.regions:
        for b in r.blocks:
            t = _last(b)
            if t is not None and t.name == "scf.yield":
                v.edge(op, t, "parent", t.operands, want)


def _index_switch(v: _Verifier, op: Op, parent: Op) -> None:
    want = [r.type for r in op.results]
    for i, r in enumerate(op.regions):
        t = _last(r.blocks[0] if r.blocks else None)
        if t is None or t.name != "scf.yield":
            continue
        where = "default region" if i == 0 else f"case region #{i - 1}"
        if len(t.operands) != len(want):
            v.op_fail(op, f"expected each region to return {len(want)} values, but {where} "
                          f"returns {len(t.operands)}")
        for j, (x, w) in enumerate(zip(t.operands, want, strict=True)):
            if not same_type(x.type, w):
                v.op_fail(op, f"expected result #{j} of each region to be '{w}' ({where} "
                              f"returns '{x.type}')")


def _in_parallel(v: _Verifier, op: Op, parent: Op) -> None:
    for r in op.regions:
        for b in r.blocks:
            for o in b.ops:
                if o.name in v.known and o.name != "tensor.parallel_insert_slice":
                    v.op_fail(op, "expected only ParallelCombiningOpInterface ops (found "
                                  f"'{o.name}')")


def _parallel_insert_slice(v: _Verifier, op: Op, parent: Op) -> None:
    from .verify_slices import insert_slice

    def parent_rule() -> str | None:
        if parent.name != "scf.forall.in_parallel" and parent.name in v.known:
            return f"expected InParallelOpInterface parent, got: '{parent.name}'"
        return None

    msg = insert_slice(op, parent_rule)
    if msg is not None:
        v.fail(op, msg)


def _slice(v: _Verifier, op: Op, parent: Op) -> None:
    """Slice ops (verify_slices.py): lists, result / source type, bounds."""
    from .verify_slices import CHECKS
    msg = CHECKS[op.name](op)
    if msg is not None:
        v.fail(op, msg)


_LINALG_NOT_STRUCTURED = frozenset({"linalg.yield", "linalg.index"})


def _is_linalg_parent(v: _Verifier, parent: Op) -> bool:
    name = parent.name
    if not name.startswith("linalg."):
        return False
    return name not in _LINALG_NOT_STRUCTURED


def _linalg_child(v: _Verifier, op: Op, parent: Op) -> None:
    """linalg.yield / linalg.index need a LinalgOp parent (unknown ``linalg.*`` ops are
    given the benefit of the doubt)."""
    if not _is_linalg_parent(v, parent):
        v.op_fail(op, "expected parent op with LinalgOp interface")
    if op.name == "linalg.index":
        from .verify_linalg import index
        bad = index(op)
        if bad is not None:
            v.op_fail(op, bad)
    if op.name == "linalg.yield" and parent.name in ("linalg.generic", "linalg.map",
                                                     "linalg.reduce"):
        outs = _ins_outs(parent)[1]
        vals = op.operands
        if len(vals) != len(outs):
            v.op_fail(op, f"expected number of yield values ({len(vals)}) to match the "
                          f"number of inits / outs operands of the enclosing LinalgOp "
                          f"({len(outs)})")
        for i, (x, o) in enumerate(zip(vals, outs, strict=True)):
            want = elem_or_self(o.type)
            if not same_type(x.type, want):
                v.op_fail(op, f"type of yield operand {i + 1} ('{x.type}') doesn't match "
                              f"the element type of the enclosing linalg.generic op "
                              f"('{want}')")


def _ins_outs(op: Op) -> tuple[list[Value], list[Value]]:
    ops = op.operands
    seg = op.attrs.get("operandSegmentSizes")
    if isinstance(seg, A.DenseArrayAttr) and len(seg.values) == 2:
        n_in = seg.values[0]
        return ops[:n_in], ops[n_in:]
    if op.name == "linalg.reduce":
        return ops[:len(ops) // 2], ops[len(ops) // 2:]
    return ops[:-1], ops[-1:]


def _linalg_body(v: _Verifier, op: Op, parent: Op) -> None:
    name = op.name
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        if name == "linalg.generic":
            v.op_fail(op, "expects to have 1 region with 1 block")
        return
    body = op.regions[0].blocks[0]
    ins, outs = _ins_outs(op)
    operands = ins + outs
    args = body.args
    if len(args) != len(operands):
        if name == "linalg.map":
            v.op_fail(op, f"expects number of operands to match the arity of mapper, but "
                          f"got: {len(operands)} and {len(args)}")
        if name == "linalg.reduce":
            v.op_fail(op, "mismatching number of operands and block arguments")
        v.op_fail(op, "expected as many non-induction variable region arguments as the "
                      "number of input/output operands")
    for i, (a, x) in enumerate(zip(args, operands, strict=True)):
        want = elem_or_self(x.type)
        if same_type(a.type, want):
            continue
        if name == "linalg.map" and i < len(ins):
            v.op_fail(op, f"expected element type of input '{want}' to match bbArg type "
                          f"'{a.type}'")
        if name == "linalg.reduce":
            kind = "input" if i < len(ins) else "output"
            v.op_fail(op, f"{kind} element type '{want}' does not match corresponding block "
                          f"argument type '{a.type}'")
        v.op_fail(op, f"expected type of bb argument #{i} ('{a.type}') to match element or "
                      f"self type of the corresponding operand ('{want}')")


def _linalg_structured(v: _Verifier, op: Op, parent: Op) -> None:
    """Structured linalg ops: indexing maps and shapes (verify_linalg.py), then, for ops
    with a region, the region's arguments."""
    from .verify_linalg import structured
    bad = structured(op)
    if bad is not None:
        msg, prefixed = bad
        v.op_fail(op, msg) if prefixed else v.fail(op, msg)
    if op.name in ("linalg.generic", "linalg.map", "linalg.reduce") or op.regions:
        _linalg_body(v, op, parent)


def _tensor_body(v: _Verifier, op: Op, parent: Op) -> None:
    """tensor.generate / tensor.pad: index block arguments, one per dimension, and a
    ``tensor.yield`` of the element type (an absent one is MLIR's implicit, empty one)."""
    body = _entry(op)
    if body is None:
        return
    gen = op.name == "tensor.generate"
    shaped = op.results[0].type if gen and op.results else (
        op.operands[0].type if op.operands else None)
    rank = len(shaped.shape) if isinstance(shaped, T.TensorType) else None
    if rank is not None and len(body.args) != rank:
        if gen:
            v.fail(op, "must have one body argument per input dimension")
        v.fail(op, f"expected the block to have {rank} arguments")
    for i, a in enumerate(body.args):
        if not isinstance(a.type, T.IndexType):
            if gen:
                v.fail(op, "all body arguments must be index")
            v.op_fail(op, f"expected block argument {i + 1} to be an index")
    t = _last(body)
    if t is not None and t.name != "tensor.yield" and t.name in TERMINATORS:
        return  # another terminator: its parent check reports it
    if t is None or t.name != "tensor.yield" or len(t.operands) != 1:
        explicit = t is not None and t.name == "tensor.yield"
        v.fail(t if explicit else op, "'tensor.yield' op requires a single operand")
    elem = elem_or_self(op.results[0].type) if op.results else None
    if elem is not None and not same_type(t.operands[0].type, elem):
        if gen:
            v.op_fail(op, "body must be terminated with a `yield` operation of the tensor "
                          "element type")
        v.op_fail(op, "expected yield type to match shape element type")


def _call_target(v: _Verifier, op: Op, parent: Op) -> None:
    """func.call: the callee is a func.func of the nearest module with this signature."""
    if parent.name != "func.func" and v.spelled(op) == "call":
        v.bare_unknown(op, "call")
    ref = op.attrs.get("callee")
    target = v.lookup(ref, "func.func")
    if target is False:
        return
    if target is None:
        v.op_fail(op, f"'{ref.root}' does not reference a valid function")
    ft = target.attrs.get("function_type")
    if not isinstance(ft, A.TypeAttr) or not isinstance(ft.type, T.FunctionType):
        return
    ins, outs = ft.type.inputs, ft.type.results
    vals = op.operands
    if len(vals) != len(ins):
        v.op_fail(op, "incorrect number of operands for callee")
    for i, (x, t) in enumerate(zip(vals, ins, strict=True)):
        if not same_type(x.type, t):
            v.op_fail(op, f"operand type mismatch: expected operand type '{t}', but "
                          f"provided '{x.type}' for operand number {i}")
    if len(op.results) != len(outs):
        v.op_fail(op, "incorrect number of results for callee")
    for i, (r, t) in enumerate(zip(op.results, outs, strict=True)):
        if not same_type(r.type, t):
            v.op_fail(op, f"result type mismatch at index {i} (op result type '{r.type}', "
                          f"function result type '{t}')")


def _get_global(v: _Verifier, op: Op, parent: Op) -> None:
    ref = op.attrs.get("name")
    target = v.lookup(ref, "memref.global")
    if target is None:
        v.op_fail(op, f"'{ref.root}' does not reference a valid global memref")


def _same_type(v: _Verifier, op: Op, parent: Op) -> None:
    """SameOperandsAndResultType (the math ops)."""
    ts = [x.type for x in op.operands] + [r.type for r in op.results]
    if any(not same_type(t, ts[0]) for t in ts[1:]):
        v.op_fail(op, "requires the same type for all operands and results")


def _copy(v: _Verifier, op: Op, parent: Op) -> None:
    """memref.copy: SameOperandsShape and SameOperandsElementType (unranked operands
    have no shape to compare)."""
    ts = [x.type for x in op.operands]
    if len(ts) != 2 or not all(isinstance(t, T.MemRefType | T.UnrankedMemRefType) for t in ts):
        return
    a, b = ts
    if isinstance(a, T.MemRefType) and isinstance(b, T.MemRefType) and (
            len(a.shape) != len(b.shape)
            or any(x is not None and y is not None and x != y for x, y in zip(a.shape, b.shape, strict=True))):
        # compatible shapes, as MLIR's SameOperandsShape: a dynamic size matches any
        v.op_fail(op, "requires the same shape for all operands")
    if a.elem != b.elem:
        v.op_fail(op, "requires the same element type for all operands")


def _ranked(t: Any) -> int | None:
    return len(t.shape) if isinstance(t, T.TensorType | T.MemRefType) else None


def _indices(v: _Verifier, op: Op, parent: Op) -> None:
    """memref.load/store, tensor.extract/insert: one index per dimension."""
    name = op.name
    at = 1 if name in ("memref.store", "tensor.insert") else 0
    vals = op.operands
    if len(vals) <= at:
        return
    rank = _ranked(vals[at].type)
    n = len(vals) - at - 1
    if rank is None or rank == n:
        return
    if name == "memref.load":
        v.op_fail(op, f"incorrect number of indices for load, expected {rank} but got {n}")
    if name == "memref.store":
        v.op_fail(op, "store index operand count not equal to memref rank")
    if name == "tensor.extract":
        v.op_fail(op, "incorrect number of indices for extract_element")
    v.op_fail(op, "incorrect number of indices")


def _dynamic_sizes(v: _Verifier, op: Op, parent: Op) -> None:
    """tensor.empty, memref.alloc/alloca: one size operand per ``?`` dimension."""
    if len(op.results) != 1:
        return
    t = op.results[0].type
    if not isinstance(t, T.TensorType | T.MemRefType):
        return
    want = sum(1 for d in t.shape if d is None)
    seg = op.attrs.get("operandSegmentSizes")
    has = (seg.values[0] if isinstance(seg, A.DenseArrayAttr) and seg.values
           else len(op.operands))
    if has != want:
        v.op_fail(op, f"incorrect number of dynamic sizes, has {has}, expected {want}")


def _materialize(v: _Verifier, op: Op, parent: Op) -> None:
    if len(op.operands) == 2:
        to_memref = isinstance(op.operands[1].type, T.MemRefType | T.UnrankedMemRefType)
        if ("writable" in op.attrs) != to_memref:
            v.op_fail(op, "'writable' must be specified if and only if the destination is "
                          "of memref type")


def _dialect_check(check: Any) -> Any:
    """An entry check from a dialect module's ``check(op) -> message | None``."""
    def run(v: Any, op: Op, parent: Any) -> None:
        msg = check(op)
        if msg is not None:
            v.op_fail(op, msg)
    return run


#: checks when the op is visited (MLIR: traits and verify()), before its regions
_ENTRY_CHECKS: dict[str, Any] = {
    "func.func": _func,
    "func.return": _return,
    "func.call": _call_target,
    "memref.get_global": _get_global,
    "bufferization.materialize_in_destination": _materialize,
    "tensor.extract_slice": _slice,
    "tensor.insert_slice": _slice,
    "memref.subview": _slice,
    "tensor.pad": _slice,
    "tensor.parallel_insert_slice": _parallel_insert_slice,
    "memref.load": _indices,
    "memref.store": _indices,
    "memref.copy": _copy,
    "tensor.extract": _indices,
    "tensor.insert": _indices,
    "tensor.empty": _dynamic_sizes,
    "memref.alloc": _dynamic_sizes,
    "memref.alloca": _dynamic_sizes,
    "scf.if": _if,
    "scf.forall.in_parallel": _in_parallel,
    "linalg.yield": _linalg_child,
    "linalg.index": _linalg_child,
    "linalg.generic": _linalg_structured,
    "linalg.map": _linalg_body,
    "linalg.reduce": _linalg_body,
}

#: checks after the op's regions were visited (MLIR: verifyRegions(), region traits)
_EXIT_CHECKS: dict[str, Any] = {
    "scf.for": _for,
    "scf.if": _if_yields,
    "scf.while": _while,
    "scf.execute_region": _execute_region,
    "scf.index_switch": _index_switch,
    "tensor.generate": _tensor_body,
    "tensor.pad": _tensor_body,
}
