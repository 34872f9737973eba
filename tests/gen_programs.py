"""Seeded random generator of valid, runnable tensor programs (parity / execution tests).

``generate(seed, size)`` returns an MLIR module: a few helper functions on tensors and a
``@main()`` that prints some of its tensors with ``printMemrefF32`` (through
``tensor.cast`` to ``tensor<*xf32>``, like the seeds in ../shared/corpus/seeds).  It mixes
tensor.empty + linalg.fill, dense constants, tensor.extract / tensor.insert, DPS linalg ops
(add/sub/mul/copy/generic elementwise/matmul) that write into tensors that are still live
(read-after-write conflicts), extract_slice / insert_slice with matching and disjoint
static offsets, scf.for with tensor iter_args, scf.if with tensor results, scf.while, and
calls between functions (no recursion).  Shapes are small (<= 4x4); values stay finite
(a magnitude bound is tracked for every tensor and a clamping linalg.generic is inserted
whenever a bound would grow too large), so there is no NaN / inf.

mlir-opt 22 miscompiles three shapes (DESIGN.md §5).  With ``avoid_known_miscompiles``
(default) the generator never emits them:
  * ``return_twice``: a function returning one tensor twice (results are distinct values);
  * ``yield_constant``: a loop yielding an ``arith.constant`` (or a view of one);
  * ``yield_twice``: one value yielded to two iter_args (nor twice from an scf.if).
``forall=True`` adds scf.forall loops over row/column tiles of a shared_outs tensor
(extract_slice of the tile, a DPS write into it or into a tile of an outer tensor,
tensor.parallel_insert_slice back); ``cf=True`` gives helpers with an ``i1`` parameter
an unstructured body (``cf.cond_br`` to two blocks joined by ``cf.br`` with tensor block
arguments). Both default off, so existing (seed, size) programs are unchanged.
``known_miscompile_programs()`` gives one small hand-written program per shape where the
reference pipeline's output differs from the copy-before-write semantic reference.

CLI: ``python -m tests.gen_programs --seed 3 --size 10`` prints one program.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field

__all__ = ["generate", "known_miscompile_programs", "KNOWN_MISCOMPILE_EXPECTED", "main"]

F32 = "f32"
SHAPES_2D = [(4, 4), (2, 4), (2, 2)]
SHAPES_1D = [(4,), (2,)]
SHAPES = SHAPES_2D + SHAPES_1D
#: big shape -> [(slice shape, [offsets...])]
SLICES = {
    (4, 4): [((2, 2), [(0, 0), (0, 2), (2, 0), (2, 2)]), ((2, 4), [(0, 0), (2, 0)])],
    (2, 4): [((2, 2), [(0, 0), (0, 2)])],
    (4,): [((2,), [(0,), (2,)])],
}
#: scf.forall tiles: (shape, tile shape, tiled dimension); the tile count is
#: shape[dim] // tile[dim], the tile of thread %i starts at %i * tile[dim]
FORALL_TILES = [((4, 4), (2, 4), 0), ((4, 4), (1, 4), 0), ((4,), (2,), 0), ((4,), (1,), 0),
                ((2, 4), (2, 2), 1), ((2, 4), (1, 4), 0)]
#: (a, b, out) shapes of matmuls
MATMULS = [((4, 4), (4, 4), (4, 4)), ((2, 4), (4, 4), (2, 4)), ((2, 2), (2, 4), (2, 4)),
           ((2, 2), (2, 2), (2, 2))]
CLAMP = 16.0  # clamp bound; also the bound of function arguments/results and loop values
LIMIT = 1.0e4  # a computed bound above this is clamped before use
SCALARS = [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0]
MAX_DEPTH = 2


def ttype(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def fnum(x: float) -> str:
    return f"{x:.6e}"


def idmap(rank: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


@dataclass
class Val:
    name: str
    shape: tuple[int, ...]
    bound: float
    const: bool = False  # aliases (a part of) an arith.constant
    root: str | None = None  # iter_arg / value this one was written over (DPS chain)
    origin: tuple[str, tuple[int, ...]] | None = None  # (slice parent, offsets)
    overwritten: bool = False
    local: bool = True  # defined in the current region


@dataclass
class Func:
    name: str
    params: list[tuple[int, ...] | str]  # tensor shapes or "i1"
    results: list[tuple[int, ...]]
    result_const: list[bool] = field(default_factory=list)
    text: str = ""


class Block:
    """Straight-line code in one region, with the values visible there."""

    def __init__(self, indent: str, env: list[Val], scalars: list[tuple[str, float]],
                 conds: list[str], depth: int):
        self.lines: list[str] = []
        self.indent = indent
        self.env = [Val(**{**v.__dict__, "local": False}) for v in env]
        self.scalars = list(scalars)
        self.conds = list(conds)
        self.depth = depth
        self.empties: list[tuple[str, tuple[int, ...]]] = []  # tensor.empty values in scope
        #: symbolic index values in scope: (name, least, greatest value it takes)
        self.indices: list[tuple[str, int, int]] = []
        #: a helper's loop-bound parameters (lb, ub), 0 <= lb <= ub <= 2 at every call
        self.arg_bounds: tuple[str, str] | None = None

    def inherit(self, outer: Block) -> Block:
        """Take ``outer``'s index values and loop-bound parameters (a nested region)."""
        self.indices = list(outer.indices)
        self.arg_bounds = outer.arg_bounds
        return self

    def emit(self, line: str) -> None:
        self.lines.append(self.indent + line)

    def of_shape(self, shape) -> list[Val]:
        return [v for v in self.env if v.shape == shape]


#: flags of the program classes of tests/gen_classes.py (module doc there): CLI spelling
CLASS_FLAGS = {
    "arg-loops": "loops bounded by index parameters (zero trips too) overwriting an init "
                 "read again after the loop",
    "multi-outs": "multi-result linalg.generic, one tensor as two outs operands",
    "high-rank": "rank-reducing extract_slice / insert_slice of rank 4 to 7",
    "slice-writes": "several slice writes into one tensor still read afterwards; symbolic "
                    "and loop-variable offsets",
}


class Generator:
    def __init__(self, seed: int, size: int, avoid_known_miscompiles: bool = True,
                 forall: bool = False, cf: bool = False, dps: bool = False,
                 views: bool = False, arg_loops: bool = False, multi_outs: bool = False,
                 high_rank: bool = False, slice_writes: bool = False):
        self.rng = random.Random(seed)
        self.arg_loops = arg_loops
        self.multi_outs = multi_outs
        self.high_rank = high_rank
        self.slice_writes = slice_writes
        self.hr_shapes: list[tuple[int, ...]] = []  # high_rank: the program's big shapes
        self.views = views
        self.forall = forall
        self.cf = cf
        self.dps = dps
        self.size = max(1, size)
        self.avoid = avoid_known_miscompiles
        self.n = 0
        self.funcs: list[Func] = []
        self.called: set[str] = set()

    # ---------------------------------------------------------------- helpers
    def fresh(self, p: str = "v") -> str:
        self.n += 1
        return f"%{p}{self.n}"

    def scalar(self, b: Block) -> tuple[str, float]:
        if b.scalars and self.rng.random() < 0.6:
            return self.rng.choice(b.scalars)
        x = self.rng.choice(SCALARS)
        name = self.fresh("s")
        b.emit(f"{name} = arith.constant {fnum(x)} : f32")
        b.scalars.append((name, abs(x)))
        return name, abs(x)

    def cond(self, b: Block) -> str:
        r = self.rng.random()
        if r < 0.4 and len(b.scalars) >= 2:
            (x, _), (y, _) = self.rng.sample(b.scalars, 2)
            name = self.fresh("p")
            pred = self.rng.choice(["olt", "ogt", "oge"])
            b.emit(f"{name} = arith.cmpf {pred}, {x}, {y} : f32")
            b.conds.append(name)
            return name
        return self.rng.choice(b.conds)

    def add(self, b: Block, v: Val) -> Val:
        b.env.append(v)
        return v

    def new_fill(self, b: Block, shape) -> Val:
        t = ttype(shape)
        if self.dps:
            s, sb = self.scalar(b)
            e = self.empty(b, shape)
        else:
            e = self.fresh("e")
            s, sb = self.scalar(b)
            b.emit(f"{e} = tensor.empty() : {t}")
            b.empties.append((e, shape))
        v = self.fresh()
        b.emit(f"{v} = linalg.fill ins({s} : f32) outs({e} : {t}) -> {t}")
        return self.add(b, Val(v, shape, sb))

    def new_const(self, b: Block, shape) -> Val:
        vals = [self.rng.choice(SCALARS) for _ in range(_numel(shape))]
        v = self.fresh("k")
        b.emit(f"{v} = arith.constant dense<{_nested(vals, shape)}> : {ttype(shape)}")
        return self.add(b, Val(v, shape, max(abs(x) for x in vals), const=True))

    def pick(self, b: Block, shape, avoid_name: str | None = None) -> Val:
        """A value of ``shape``: usually an existing one (recent ones preferred)."""
        cands = [v for v in b.of_shape(shape) if v.name != avoid_name]
        if cands and self.rng.random() < 0.85:
            if self.rng.random() < 0.5:
                return cands[-1]
            return self.rng.choice(cands)
        if self.rng.random() < 0.7:
            return self.new_fill(b, shape)
        return self.new_const(b, shape)

    def dest(self, b: Block, shape, ins: list[Val]) -> tuple[str, Val | None]:
        """outs operand: a fresh tensor.empty, or a live value (write into it)."""
        r = self.rng.random()
        cands = b.of_shape(shape)
        if cands and r < 0.6:
            d = self.rng.choice(ins) if (r < 0.25 and ins) else self.rng.choice(cands)
            d.overwritten = True
            return d.name, d
        return self.empty(b, shape), None

    def empty(self, b: Block, shape) -> str:
        """A tensor.empty of ``shape``: with ``dps``, often one already in scope (as CSE
        leaves them in real models: one empty is the destination of several ops)."""
        old = [e for e, sh in b.empties if sh == shape]
        if self.dps and old and self.rng.random() < 0.5:
            return self.rng.choice(old)
        e = self.fresh("e")
        b.emit(f"{e} = tensor.empty() : {ttype(shape)}")
        b.empties.append((e, shape))
        return e

    def sub_block(self, b: Block) -> Block:
        """A nested region's block: sees the values (and empties) of ``b``."""
        body = Block(b.indent + "  ", b.env, b.scalars, b.conds, b.depth + 1).inherit(b)
        body.empties = list(b.empties)
        return body

    def result(self, b: Block, shape, bound: float, d: Val | None, const=False,
               origin=None) -> Val:
        v = Val(self.fresh(), shape, bound, const=const)
        if d is not None:
            v.root = d.root or d.name
            v.origin = d.origin
            v.const = False
        if origin is not None:
            v.origin = origin
        return self.add(b, v)

    def bounded(self, b: Block, v: Val, limit: float) -> Val:
        """``v`` itself if its bound is <= limit, else a clamped copy of it."""
        if v.bound <= limit:
            return v
        return self.clamp(b, v, in_place=self.rng.random() < 0.5)

    def clamp(self, b: Block, v: Val, in_place: bool) -> Val:
        t = ttype(v.shape)
        r = len(v.shape)
        if in_place and not v.const:
            outs, d = v.name, v
            v.overwritten = True
        else:
            outs, d = self.fresh("e"), None
            b.emit(f"{outs} = tensor.empty() : {t}")
        name = self.fresh()
        lo, hi, x, y = (self.fresh("b") for _ in range(4))
        b.emit(f'{name} = linalg.generic {{indexing_maps = [{idmap(r)}, {idmap(r)}], '
               f"iterator_types = [{_its(r)}]}} "
               f"ins({v.name} : {t}) outs({outs} : {t}) {{")
        b.emit(f"^bb0({x}: f32, {y}: f32):")
        b.emit(f"  {lo} = arith.constant {fnum(-CLAMP)} : f32")
        b.emit(f"  {hi} = arith.constant {fnum(CLAMP)} : f32")
        m1, m2 = self.fresh("b"), self.fresh("b")
        b.emit(f"  {m1} = arith.maximumf {x}, {lo} : f32")
        b.emit(f"  {m2} = arith.minimumf {m1}, {hi} : f32")
        b.emit(f"  linalg.yield {m2} : f32")
        b.emit(f"}} -> {t}")
        nv = Val(name, v.shape, min(CLAMP, v.bound))
        if d is not None:
            nv.root, nv.origin = d.root or d.name, d.origin
        else:
            nv.root, nv.origin = v.root, v.origin
        return self.add(b, nv)

    # ---------------------------------------------------------------- statements
    def st_fill(self, b: Block):
        shape = self.rng.choice(SHAPES)
        if self.rng.random() < 0.5 and b.of_shape(shape):
            s, sb = self.scalar(b)
            outs, d = self.dest(b, shape, [])
            t = ttype(shape)
            v = self.fresh()
            b.emit(f"{v} = linalg.fill ins({s} : f32) outs({outs} : {t}) -> {t}")
            nv = Val(v, shape, sb)
            if d is not None:
                nv.root, nv.origin = d.root or d.name, d.origin
            self.add(b, nv)
        elif self.rng.random() < 0.6:
            self.new_fill(b, shape)
        else:
            self.new_const(b, shape)

    def st_binary(self, b: Block):
        shape = self.rng.choice(SHAPES)
        op = self.rng.choice(["add", "sub", "mul", "add"])
        x = self.pick(b, shape)
        y = self.pick(b, shape)
        if op == "mul":
            x, y = self.bounded(b, x, CLAMP), self.bounded(b, y, CLAMP)
            bound = x.bound * y.bound
        else:
            x, y = self.bounded(b, x, LIMIT), self.bounded(b, y, LIMIT)
            bound = x.bound + y.bound
        outs, d = self.dest(b, shape, [x, y])
        t = ttype(shape)
        v = self.result(b, shape, bound, d)
        b.emit(f"{v.name} = linalg.{op} ins({x.name}, {y.name} : {t}, {t}) "
               f"outs({outs} : {t}) -> {t}")

    def st_copy(self, b: Block):
        shape = self.rng.choice(SHAPES)
        x = self.pick(b, shape)
        outs, d = self.dest(b, shape, [])
        t = ttype(shape)
        v = self.result(b, shape, x.bound, d)
        b.emit(f"{v.name} = linalg.copy ins({x.name} : {t}) outs({outs} : {t}) -> {t}")

    def st_generic(self, b: Block):
        shape = self.rng.choice(SHAPES)
        kind = self.rng.choice(["axpy", "max", "clamp", "neg"])
        x = self.bounded(b, self.pick(b, shape), LIMIT)
        if kind == "clamp":
            self.clamp(b, x, in_place=self.rng.random() < 0.5)
            return
        t, r = ttype(shape), len(shape)
        its = _its(r)
        if kind == "max":
            y = self.bounded(b, self.pick(b, shape), LIMIT)
            outs, d = self.dest(b, shape, [x, y])
            v = self.result(b, shape, max(x.bound, y.bound), d)
            a1, a2, a3, m = (self.fresh("b") for _ in range(4))
            b.emit(f"{v.name} = linalg.generic {{indexing_maps = [{idmap(r)}, {idmap(r)}, "
                   f"{idmap(r)}], iterator_types = [{its}]}} ins({x.name}, {y.name} : {t}, {t})"
                   f" outs({outs} : {t}) {{")
            b.emit(f"^bb0({a1}: f32, {a2}: f32, {a3}: f32):")
            b.emit(f"  {m} = arith.maximumf {a1}, {a2} : f32")
            b.emit(f"  linalg.yield {m} : f32")
            b.emit(f"}} -> {t}")
            return
        outs, d = self.dest(b, shape, [x])
        a1, a2, c, m, s = (self.fresh("b") for _ in range(5))
        if kind == "axpy":  # out = 0.5 * in + out   (reads the outs operand)
            ob = d.bound if d is not None else 0.0
            v = self.result(b, shape, 0.5 * x.bound + ob, d)
            body = [f"{c} = arith.constant {fnum(0.5)} : f32",
                    f"{m} = arith.mulf {a1}, {c} : f32",
                    f"{s} = arith.addf {m}, {a2} : f32"]
            if d is None:  # out is uninitialised: do not read it
                body = [f"{c} = arith.constant {fnum(0.5)} : f32",
                        f"{s} = arith.mulf {a1}, {c} : f32"]
        else:  # neg
            v = self.result(b, shape, x.bound, d)
            body = [f"{s} = arith.negf {a1} : f32"]
        b.emit(f"{v.name} = linalg.generic {{indexing_maps = [{idmap(r)}, {idmap(r)}], "
               f"iterator_types = [{its}]}} ins({x.name} : {t}) outs({outs} : {t}) {{")
        b.emit(f"^bb0({a1}: f32, {a2}: f32):")
        for line in body:
            b.emit("  " + line)
        b.emit(f"  linalg.yield {s} : f32")
        b.emit(f"}} -> {t}")

    def st_matmul(self, b: Block):
        sa, sb_, so = self.rng.choice(MATMULS)
        x = self.bounded(b, self.pick(b, sa), CLAMP)
        y = self.bounded(b, self.pick(b, sb_), CLAMP)
        if self.rng.random() < 0.5:
            e, d = self.fresh("e"), None
            b.emit(f"{e} = tensor.empty() : {ttype(so)}")
            zero = self.fresh("s")
            b.emit(f"{zero} = arith.constant {fnum(0.0)} : f32")
            z = self.fresh()
            b.emit(f"{z} = linalg.fill ins({zero} : f32) outs({e} : {ttype(so)}) -> {ttype(so)}")
            outs, ob = z, 0.0
        else:
            dv = self.bounded(b, self.pick(b, so), CLAMP)
            dv.overwritten = True
            outs, d, ob = dv.name, dv, dv.bound
        v = self.result(b, so, ob + sa[1] * x.bound * y.bound, d)
        b.emit(f"{v.name} = linalg.matmul ins({x.name}, {y.name} : {ttype(sa)}, {ttype(sb_)}) "
               f"outs({outs} : {ttype(so)}) -> {ttype(so)}")

    def st_extract_insert(self, b: Block):
        shape = self.rng.choice(SHAPES)
        src = self.pick(b, shape)
        idx = ", ".join(f"%c{self.rng.randrange(n)}" for n in shape)
        s = self.fresh("s")
        b.emit(f"{s} = tensor.extract {src.name}[{idx}] : {ttype(shape)}")
        b.scalars.append((s, src.bound))
        if self.rng.random() < 0.7:
            shape2 = self.rng.choice(SHAPES)
            dst = self.pick(b, shape2)
            dst.overwritten = True
            idx2 = ", ".join(f"%c{self.rng.randrange(n)}" for n in shape2)
            v = self.result(b, shape2, max(dst.bound, src.bound), dst)
            b.emit(f"{v.name} = tensor.insert {s} into {dst.name}[{idx2}] : {ttype(shape2)}")

    def st_slice(self, b: Block):
        big = self.rng.choice(list(SLICES))
        small, offs_list = self.rng.choice(SLICES[big])
        # insert_slice back a value derived from a slice of the same parent?
        derived = [v for v in b.env if v.origin and v.shape == small
                   and any(p.name == v.origin[0] for p in b.env)]
        if derived and self.rng.random() < 0.6:
            src = self.rng.choice(derived)
            parent = next(p for p in b.env if p.name == src.origin[0])
            if parent.shape in SLICES and any(s == small for s, _ in SLICES[parent.shape]):
                big = parent.shape
                offs_list = next(o for s, o in SLICES[big] if s == small)
                same = self.rng.random() < 0.6
                offs = src.origin[1] if same else self.rng.choice(offs_list)
                self.insert_slice(b, src, parent, offs)
                return
        parent = self.pick(b, big)
        offs = self.rng.choice(offs_list)
        v = self.fresh()
        b.emit(f"{v} = tensor.extract_slice {parent.name}{_sl(offs, small)} : "
               f"{ttype(big)} to {ttype(small)}")
        self.add(b, Val(v, small, parent.bound, const=parent.const,
                        origin=(parent.name, offs)))
        if self.rng.random() < 0.5:
            self.insert_slice(b, self.pick(b, small), self.pick(b, big), offs)

    def insert_slice(self, b: Block, src: Val, dst: Val, offs):
        dst.overwritten = True
        v = self.result(b, dst.shape, max(src.bound, dst.bound), dst)
        b.emit(f"{v.name} = tensor.insert_slice {src.name} into {dst.name}"
               f"{_sl(offs, src.shape)} : {ttype(src.shape)} into {ttype(dst.shape)}")

    def st_for(self, b: Block):
        k = self.rng.choice([1, 1, 2])
        inits = [self.pick(b, self.rng.choice(SHAPES)) for _ in range(k)]
        if k == 2 and inits[0].name == inits[1].name and self.rng.random() < 0.5:
            inits[1] = self.new_fill(b, inits[1].shape)
        ub = self.rng.choice([1, 2, 3])
        res = self.fresh("r")
        iv = self.fresh("i")
        args = [Val(self.fresh("a"), v.shape, max(v.bound, CLAMP)) for v in inits]
        for a in args:
            a.root = a.name
        body = self.sub_block(b)
        body.indices.append((iv, 0, ub - 1))
        for a in args:
            body.env.append(a)
        self.stmts(body, self.rng.randint(1, max(2, self.size // 3)))
        yields = self.pick_yields(body, args)
        types = ", ".join(ttype(a.shape) for a in args)
        head = (f"{res}:{k} = " if k > 1 else f"{res} = ")
        b.emit(f"{head}scf.for {iv} = %c0 to %c{ub} step %c1 iter_args("
               + ", ".join(f"{a.name} = {v.name}" for a, v in zip(args, inits, strict=True))
               + f") -> ({types}) {{")
        b.lines += body.lines
        b.emit(f"  scf.yield {', '.join(y.name for y in yields)} : {types}")
        b.emit("}")
        for i, a in enumerate(args):
            nm = f"{res}#{i}" if k > 1 else res
            self.add(b, Val(nm, a.shape, a.bound, const=yields[i].const))

    def st_forall(self, b: Block):
        """scf.forall over the tiles of a shared_outs tensor: each thread writes its tile
        (in place: a matching extract_slice / parallel_insert_slice pair), sometimes through
        a tile of an outer tensor (a write into a buffer defined outside the parallel
        body: out of place) or a fresh tensor."""
        shape, tile, dim = self.rng.choice(FORALL_TILES)
        n = shape[dim] // tile[dim]
        init = self.pick(b, shape)
        init.overwritten = True
        t, tt = ttype(shape), ttype(tile)
        res, iv, o = self.fresh("r"), self.fresh("i"), self.fresh("o")
        off = self.fresh("off")
        body = Block(b.indent + "  ", b.env, b.scalars, b.conds, b.depth + 1).inherit(b)
        body.indices.append((iv, 0, n - 1))
        ov = Val(o, shape, max(init.bound, CLAMP))
        body.env.append(ov)
        body.emit(f"{off} = arith.muli {iv}, %c{tile[dim]} : index")
        offs = ["0"] * len(shape)
        offs[dim] = off
        sl = (f"[{', '.join(offs)}] [{', '.join(map(str, tile))}] "
              f"[{', '.join('1' for _ in tile)}]")
        if self.rng.random() < 0.4:
            self.stmts(body, self.rng.randint(1, max(1, self.size // 4)))
        r = self.rng.random()
        own = self.fresh("s")
        body.emit(f"{own} = tensor.extract_slice {o}{sl} : {t} to {tt}")
        if r < 0.5:  # the thread's own tile of the shared output
            dst = Val(own, tile, ov.bound)
        elif r < 0.8:  # a tile of a tensor defined outside the loop
            outer = self.pick(b, shape)
            outer.overwritten = True
            x = self.fresh("s")
            body.emit(f"{x} = tensor.extract_slice {outer.name}{sl} : {t} to {tt}")
            dst = Val(x, tile, outer.bound)
        else:  # a fresh tensor
            dst = self.new_fill(body, tile)
        src = Val(own, tile, ov.bound)
        kind = self.rng.choice(["fill", "add", "insert"])
        w = self.fresh("v")
        if kind == "fill":
            sc, sb = self.scalar(body)
            body.emit(f"{w} = linalg.fill ins({sc} : f32) outs({dst.name} : {tt}) -> {tt}")
            bound = sb
        elif kind == "add":
            body.emit(f"{w} = linalg.add ins({src.name}, {dst.name} : {tt}, {tt}) "
                      f"outs({dst.name} : {tt}) -> {tt}")
            bound = src.bound + dst.bound
        else:
            sc, sb = self.scalar(body)
            idx = ", ".join(f"%c{self.rng.randrange(k)}" for k in tile)
            body.emit(f"{w} = tensor.insert {sc} into {dst.name}[{idx}] : {tt}")
            bound = max(sb, dst.bound)
        wv = self.bounded(body, Val(w, tile, bound), CLAMP)
        b.emit(f"{res} = scf.forall ({iv}) in ({n}) shared_outs({o} = {init.name}) -> ({t}) {{")
        b.lines += body.lines
        b.emit("  scf.forall.in_parallel {")
        b.emit(f"    tensor.parallel_insert_slice {wv.name} into {o}{sl} : {tt} into {t}")
        b.emit("  }")
        b.emit("}")
        self.add(b, Val(res, shape, max(init.bound, CLAMP), const=False))

    def touch(self, b: Block, a: Val) -> None:
        """Write into iter_arg ``a`` (in-place candidate) unless the body already did."""
        if any(v.root == a.name and v.local for v in b.env) or self.rng.random() < 0.2:
            return
        t = ttype(a.shape)
        a.overwritten = True
        if self.rng.random() < 0.5:
            x = self.bounded(b, self.pick(b, a.shape, avoid_name=a.name), LIMIT)
            op = self.rng.choice(["add", "sub"])
            v = self.result(b, a.shape, a.bound + x.bound, a)
            b.emit(f"{v.name} = linalg.{op} ins({a.name}, {x.name} : {t}, {t}) "
                   f"outs({a.name} : {t}) -> {t}")
        else:
            s, sb = self.scalar(b)
            idx = ", ".join(f"%c{self.rng.randrange(n)}" for n in a.shape)
            v = self.result(b, a.shape, max(a.bound, sb), a)
            b.emit(f"{v.name} = tensor.insert {s} into {a.name}[{idx}] : {t}")

    def pick_yields(self, body: Block, args: list[Val]) -> list[Val]:
        """One yielded value per iter_arg, bounded by the iter_arg's bound."""
        for a in args:
            self.touch(body, a)
        out: list[Val] = []
        for a in args:
            cands = [v for v in body.env if v.shape == a.shape]
            if self.avoid:
                cands = [v for v in cands if not v.const and all(v.name != o.name for o in out)]
            derived = [v for v in cands if v.root == a.name and v.local]
            if derived and self.rng.random() < 0.75:
                y = derived[-1]
            elif cands and self.rng.random() < 0.8:
                y = self.rng.choice(cands)
            else:
                y = self.new_fill(body, a.shape)
            y = self.bounded(body, y, a.bound)
            out.append(y)
        return out

    def st_while(self, b: Block):
        init = self.pick(b, self.rng.choice(SHAPES))
        n = self.rng.choice([1, 2, 3])
        t = ttype(init.shape)
        res = self.fresh("w")
        a0, k0, cmp = self.fresh("a"), self.fresh("n"), self.fresh("p")
        a = Val(self.fresh("a"), init.shape, max(init.bound, CLAMP))
        a.root = a.name
        k1, k2 = self.fresh("n"), self.fresh("n")
        body = self.sub_block(b)
        body.indices.append((k1, 0, n - 1))
        body.env.append(a)
        self.stmts(body, self.rng.randint(1, max(2, self.size // 3)))
        (y,) = self.pick_yields(body, [a])
        b.emit(f"{res}:2 = scf.while ({a0} = {init.name}, {k0} = %c0) : ({t}, index) -> "
               f"({t}, index) {{")
        b.emit(f"  {cmp} = arith.cmpi slt, {k0}, %c{n} : index")
        b.emit(f"  scf.condition({cmp}) {a0}, {k0} : {t}, index")
        b.emit("} do {")
        b.emit(f"^bb0({a.name}: {t}, {k1}: index):")
        b.lines += body.lines
        b.emit(f"  {k2} = arith.addi {k1}, %c1 : index")
        b.emit(f"  scf.yield {y.name}, {k2} : {t}, index")
        b.emit("}")
        self.add(b, Val(f"{res}#0", init.shape, a.bound, const=y.const))

    def st_if(self, b: Block):
        c = self.cond(b)
        k = self.rng.choice([1, 1, 2])
        shapes = [self.rng.choice(SHAPES) for _ in range(k)]
        branches = []
        for _ in range(2):
            br = self.sub_block(b)
            self.stmts(br, self.rng.randint(0, max(1, self.size // 4)))
            ys = []
            for s in shapes:
                cands = br.of_shape(s)
                if self.avoid:  # one value yielded twice: a cousin of yield_twice
                    cands = [v for v in cands if all(v.name != y.name for y in ys)]
                local = [v for v in cands if v.local]
                if local and self.rng.random() < 0.7:
                    y = local[-1]
                elif cands:
                    y = self.rng.choice(cands)
                else:
                    y = self.new_fill(br, s)
                ys.append(y)
            branches.append((br, ys))
        res = self.fresh("r")
        types = ", ".join(ttype(s) for s in shapes)
        head = (f"{res}:{k} = " if k > 1 else f"{res} = ")
        b.emit(f"{head}scf.if {c} -> ({types}) {{")
        for i, (br, ys) in enumerate(branches):
            if i == 1:
                b.emit("} else {")
            b.lines += br.lines
            b.emit(f"  scf.yield {', '.join(y.name for y in ys)} : {types}")
        b.emit("}")
        for i, s in enumerate(shapes):
            y0, y1 = branches[0][1][i], branches[1][1][i]
            nm = f"{res}#{i}" if k > 1 else res
            self.add(b, Val(nm, s, max(y0.bound, y1.bound), const=y0.const or y1.const))

    # ---------------------------------------------------------------- dps=True statements
    def dps_dest(self, b: Block, shape, ins: list[Val]) -> tuple[str, Val | None]:
        """outs of an op that never reads it: a live value, a constant (a write into a
        read-only buffer unless the op goes out of place) or an empty in scope."""
        consts = [v for v in b.of_shape(shape) if v.const]
        if consts and self.rng.random() < 0.2:
            d = self.rng.choice(consts)
            d.overwritten = True
            return d.name, d
        return self.dest(b, shape, ins)

    def st_map(self, b: Block):
        shape = self.rng.choice(SHAPES)
        t = ttype(shape)
        kind = self.rng.choice(["addf", "mulf", "negf", "subf"])
        x = self.bounded(b, self.pick(b, shape), CLAMP)
        ins = [x]
        if kind != "negf":
            ins.append(x if self.rng.random() < 0.3 else self.bounded(b, self.pick(b, shape), CLAMP))
        outs, d = self.dps_dest(b, shape, ins)
        bound = (ins[0].bound * ins[1].bound if kind == "mulf" else
                 sum(v.bound for v in ins))
        v = self.result(b, shape, bound, d)
        names = ", ".join(i.name for i in ins)
        types = ", ".join(t for _ in ins)
        b.emit(f"{v.name} = linalg.map {{ arith.{kind} }} ins({names} : {types}) outs({outs} : {t})")

    def st_transpose(self, b: Block):
        shape = self.rng.choice([(4, 4), (2, 2)])
        t = ttype(shape)
        x = self.pick(b, shape)
        outs, d = self.dps_dest(b, shape, [x])
        v = self.result(b, shape, x.bound, d)
        b.emit(f"{v.name} = linalg.transpose ins({x.name} : {t}) outs({outs} : {t}) "
               f"permutation = [1, 0]")

    def st_broadcast(self, b: Block):
        src, dst, dim = self.rng.choice([((4,), (4, 4), 0), ((4,), (4, 4), 1),
                                         ((4,), (2, 4), 0), ((2,), (2, 4), 1), ((2,), (2, 2), 0)])
        x = self.pick(b, src)
        outs, d = self.dps_dest(b, dst, [])
        v = self.result(b, dst, x.bound, d)
        b.emit(f"{v.name} = linalg.broadcast ins({x.name} : {ttype(src)}) "
               f"outs({outs} : {ttype(dst)}) dimensions = [{dim}]")

    def st_reduce(self, b: Block):
        src, dst, dim = self.rng.choice([((4, 4), (4,), 1), ((4, 4), (4,), 0),
                                         ((2, 4), (2,), 1), ((2, 4), (4,), 0)])
        x = self.bounded(b, self.pick(b, src), CLAMP)
        init = self.bounded(b, self.pick(b, dst), CLAMP)
        init.overwritten = True
        v = self.result(b, dst, init.bound + src[dim] * x.bound, init)
        b.emit(f"{v.name} = linalg.reduce {{ arith.addf }} ins({x.name} : {ttype(src)}) "
               f"outs({init.name} : {ttype(dst)}) dimensions = [{dim}]")

    def st_call(self, b: Block):
        if not self.funcs:
            return self.st_binary(b)
        self.call(b, self.rng.choice(self.funcs))

    def call(self, b: Block, f: Func):
        self.called.add(f.name)
        args, types = [], []
        bounds = self.call_bounds(f) if "lb" in f.params else None
        for p in f.params:
            if p == "i1":
                args.append(self.cond(b))
                types.append("i1")
            elif p in ("lb", "ub"):
                args.append(bounds[p == "ub"])
                types.append("index")
            else:
                a = self.view_of(b, p) if self.views and self.rng.random() < 0.7 else None
                args.append((a or self.bounded(b, self.pick(b, p), CLAMP)).name)
                types.append(ttype(p))
        rtypes = [ttype(s) for s in f.results]
        res = self.fresh("r")
        head = f"{res}:{len(f.results)} = " if len(f.results) > 1 else f"{res} = "
        rt = rtypes[0] if len(rtypes) == 1 else "(" + ", ".join(rtypes) + ")"
        b.emit(f"{head}func.call @{f.name}({', '.join(args)}) : ({', '.join(types)}) -> {rt}")
        for i, s in enumerate(f.results):
            nm = f"{res}#{i}" if len(f.results) > 1 else res
            self.add(b, Val(nm, s, CLAMP, const=f.result_const[i]))

    def view_of(self, b: Block, shape) -> Val | None:
        """With ``views``: a new extract_slice of ``shape`` from a bigger value (a strided
        view; a call taking it needs a copy into an identity-layout buffer)."""
        bigs = [big for big, subs in SLICES.items() if any(sh == shape for sh, _ in subs)]
        if not bigs:
            return None
        big = self.rng.choice(bigs)
        offs = self.rng.choice(next(o for sh, o in SLICES[big] if sh == shape))
        # often a parent nothing else reads: the call may then write the view in place
        parent = self.new_fill(b, big) if self.rng.random() < 0.6 \
            else self.bounded(b, self.pick(b, big), CLAMP)
        v = self.fresh()
        b.emit(f"{v} = tensor.extract_slice {parent.name}{_sl(offs, shape)} : "
               f"{ttype(big)} to {ttype(shape)}")
        return self.add(b, Val(v, shape, parent.bound, const=parent.const,
                               origin=(parent.name, offs)))

    def written_param(self, b: Block, params: list[Val]) -> Val:
        """With ``views``: a write into a tensor parameter (a fill, or a clamp that also
        reads it), returned by the helper: the call's result is the argument's buffer."""
        viewable = [a for a in params if any(sh == a.shape for subs in SLICES.values()
                                             for sh, _ in subs)]
        a = self.rng.choice(viewable or params)
        if self.rng.random() < 0.5:
            return self.clamp(b, a, in_place=True)
        s, sb = self.scalar(b)
        v, t = self.fresh(), ttype(a.shape)
        b.emit(f"{v} = linalg.fill ins({s} : f32) outs({a.name} : {t}) -> {t}")
        a.overwritten = True
        return self.add(b, Val(v, a.shape, sb, root=a.name))

    # ---------------------------------------------------------------- class hooks
    # tests/gen_classes.py's ClassGenerator fills these in; without its flags they add
    # nothing and draw no random numbers, so existing (seed, size) programs are unchanged.
    def new_classes(self) -> bool:
        return False

    def class_kinds(self, b: Block) -> list:
        return []

    def class_loop_kinds(self, b: Block) -> list:
        return []

    def call_bounds(self, f: Func) -> tuple[str, str]:
        raise NotImplementedError

    def call_zero_and_nonzero_trips(self, b: Block) -> None:
        pass

    def more_results(self, n: int) -> int:
        return n

    def min_helpers(self) -> int:
        return 0

    def stmts(self, b: Block, count: int):
        kinds = [(self.st_fill, 2), (self.st_binary, 4), (self.st_copy, 1),
                 (self.st_generic, 2), (self.st_matmul, 1), (self.st_extract_insert, 2),
                 (self.st_slice, 3), (self.st_call, 2 if self.funcs else 0)]
        if self.dps:
            kinds += [(self.st_map, 3), (self.st_transpose, 2), (self.st_broadcast, 1),
                      (self.st_reduce, 1)]
        kinds += self.class_kinds(b)
        if b.depth < MAX_DEPTH:
            kinds += [(self.st_for, 2), (self.st_if, 2), (self.st_while, 1)]
            if self.forall:
                kinds += [(self.st_forall, 2)]
            kinds += self.class_loop_kinds(b)
        fns, weights = zip(*kinds, strict=True)
        for _ in range(count):
            self.rng.choices(fns, weights)[0](b)

    # ---------------------------------------------------------------- functions
    def prologue(self, b: Block):
        for i in range(5):
            b.emit(f"%c{i} = arith.constant {i} : index")
        b.emit("%true = arith.constant true")
        b.emit("%false = arith.constant false")

    def helper(self, idx: int) -> Func:
        nparams = self.rng.randint(1, 3)
        params: list = [self.rng.choice(SHAPES) for _ in range(nparams)]
        has_cond = self.rng.random() < 0.5
        if has_cond:
            params.append("i1")
        if (self.arg_loops or self.slice_writes) and self.rng.random() < 0.8:
            params += ["lb", "ub"]  # index parameters: loop bounds, slice offsets
        f = Func(f"f{idx}", params, [])
        b = Block("  ", [], [], ["%true", "%false"], 0)
        self.prologue(b)
        sig, targs = [], set()
        for p in params:
            if p == "i1":
                sig.append("%cond: i1")
                b.conds.append("%cond")
            elif p in ("lb", "ub"):
                sig.append(f"%{p}: index")
                b.indices.append((f"%{p}", 0, 2))
                b.arg_bounds = ("%lb", "%ub")
            else:
                a = Val(self.fresh("arg"), p, CLAMP)
                sig.append(f"{a.name}: {ttype(p)}")
                b.env.append(a)
                targs.add(a.name)
        self.stmts(b, self.rng.randint(1, max(2, self.size // 2)))
        if self.cf and has_cond and self.rng.random() < 0.7:
            return self.cf_helper(f, b, sig)
        nres = self.more_results(self.rng.choice([1, 1, 2]))
        tparams = [v for v in b.env if v.name in targs]
        rets: list[Val] = [self.written_param(b, tparams)] \
            if self.views and tparams and self.rng.random() < 0.5 else []
        pool = [v for v in b.env if v.local] or b.env
        for _ in range(nres - len(rets)):
            cands = [v for v in pool if all(v.name != r.name for r in rets)] \
                if self.avoid else pool
            if not cands:
                break
            y = cands[-1] if self.rng.random() < 0.6 else self.rng.choice(cands)
            rets.append(self.bounded(b, y, CLAMP))
        f.results = [r.shape for r in rets]
        f.result_const = [r.const for r in rets]
        rtypes = ", ".join(ttype(r.shape) for r in rets)
        lines = [f"func.func @{f.name}({', '.join(sig)}) -> ({rtypes}) {{"] + b.lines
        lines.append(f"  return {', '.join(r.name for r in rets)} : {rtypes}")
        lines.append("}")
        f.text = "\n".join(lines)
        return f

    def cf_helper(self, f: Func, b: Block, sig: list[str]) -> Func:
        """Finish helper ``f`` as a diamond: ``cf.cond_br %cond`` to ^bb1 (no arguments)
        and ^bb2 (tensor block arguments), both ``cf.br`` to ^bb3 (tensor block
        arguments), which returns them."""
        shapes = [self.rng.choice(SHAPES) for _ in range(self.rng.choice([1, 1, 2]))]
        # ^bb2 receives entry values as block arguments
        passed = [self.bounded(b, self.pick(b, self.rng.choice(SHAPES)), CLAMP)
                  for _ in range(self.rng.choice([1, 2]))]
        b2args = [Val(self.fresh("ba"), v.shape, v.bound) for v in passed]
        arms = []
        for extra in ([], b2args):
            br = Block("  ", b.env, b.scalars, b.conds, 1).inherit(b)
            br.env += [Val(**{**v.__dict__, "local": True}) for v in extra]
            self.stmts(br, self.rng.randint(0, max(1, self.size // 4)))
            ys = []
            for sh in shapes:
                cands = [v for v in br.of_shape(sh) if all(v.name != y.name for y in ys)]
                local = [v for v in cands if v.local]
                if local and self.rng.random() < 0.7:
                    y = local[-1]
                elif cands:
                    y = self.rng.choice(cands)
                else:
                    y = self.new_fill(br, sh)
                ys.append(self.bounded(br, y, CLAMP))
            arms.append((br, ys))
        joined = [Val(self.fresh("j"), sh, CLAMP) for sh in shapes]
        rtypes = ", ".join(ttype(sh) for sh in shapes)
        ptypes = ", ".join(ttype(v.shape) for v in passed)
        lines = [f"func.func @{f.name}({', '.join(sig)}) -> ({rtypes}) {{"] + b.lines
        lines.append(f"  cf.cond_br %cond, ^bb1, ^bb2({', '.join(v.name for v in passed)} : "
                     f"{ptypes})")
        for k, (br, ys) in enumerate(arms):
            if k == 0:
                lines.append("^bb1:")
            else:
                lines.append("^bb2(" + ", ".join(f"{a.name}: {ttype(a.shape)}" for a in b2args)
                             + "):")
            lines += br.lines
            lines.append(f"  cf.br ^bb3({', '.join(y.name for y in ys)} : {rtypes})")
        lines.append("^bb3(" + ", ".join(f"{j.name}: {ttype(j.shape)}" for j in joined) + "):")
        lines.append(f"  return {', '.join(j.name for j in joined)} : {rtypes}")
        lines.append("}")
        f.results = shapes
        f.result_const = [any(y.const for _, ys in arms for y in ys[i:i + 1])
                          for i in range(len(shapes))]
        f.text = "\n".join(lines)
        return f

    def main_func(self) -> str:
        b = Block("  ", [], [], ["%true", "%false"], 0)
        self.prologue(b)
        self.stmts(b, self.size)
        for f in self.funcs:  # every helper is called at least once
            if f.name not in self.called:
                self.call(b, f)
        self.call_zero_and_nonzero_trips(b)
        if not b.env:
            self.new_fill(b, (4,))
        # print: values that were written over (they test RaW handling) and results of
        # calls / loops / ifs first, then others
        over = [v for v in b.env if v.overwritten or v.name.startswith(("%r", "%w"))]
        rest = [v for v in b.env if v not in over]
        self.rng.shuffle(over)
        self.rng.shuffle(rest)
        chosen = (over + rest)[: min(6 if self.new_classes() else 4, len(b.env))]
        chosen.sort(key=lambda v: b.env.index(v))
        for i, v in enumerate(chosen):
            t = ttype(v.shape)
            name = v.name
            if i + 1 < len(chosen):
                # The external print may write its operand (bufferization.access is
                # "read-write" for a body-less function), and an unranked tensor cannot
                # be copied: print all but the last value through a fresh copy, so that no
                # later read conflicts with the print.
                e, name = self.fresh("e"), self.fresh("p")
                b.emit(f"{e} = tensor.empty() : {t}")
                b.emit(f"{name} = linalg.copy ins({v.name} : {t}) outs({e} : {t}) -> {t}")
            u = self.fresh("u")
            b.emit(f"{u} = tensor.cast {name} : {t} to tensor<*xf32>")
            b.emit(f"call @printMemrefF32({u}) : (tensor<*xf32>) -> ()")
        return "\n".join(["func.func @main() {", *b.lines, "  return", "}"])

    def generate(self) -> str:
        nhelpers = max(self.min_helpers(), self.rng.randint(0, min(3, 1 + self.size // 6)))
        for i in range(nhelpers):
            self.funcs.append(self.helper(i))
        out = [f.text for f in self.funcs]
        out.append(self.main_func())
        out.append("func.func private @printMemrefF32(tensor<*xf32>)")
        return "\n\n".join(out) + "\n"


def _its(rank: int) -> str:
    return ", ".join(['"parallel"'] * rank)


def _numel(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _nested(vals: list[float], shape) -> str:
    if not shape:
        return fnum(vals[0])
    if len(shape) == 1:
        return "[" + ", ".join(fnum(x) for x in vals) + "]"
    step = _numel(shape[1:])
    return "[" + ", ".join(_nested(vals[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def _sl(offs, shape) -> str:
    return (f"[{', '.join(map(str, offs))}] [{', '.join(map(str, shape))}] "
            f"[{', '.join('1' for _ in shape)}]")


def generate(seed: int, size: int = 10, avoid_known_miscompiles: bool = True,
             forall: bool = False, cf: bool = False, dps: bool = False,
             views: bool = False, arg_loops: bool = False, multi_outs: bool = False,
             high_rank: bool = False, slice_writes: bool = False) -> str:
    """A valid tensor program (MLIR text), deterministic in (seed, size, flags).
    ``forall`` / ``cf``: also scf.forall loops / unstructured helper bodies (module doc).
    ``dps``: also linalg.map / transpose / broadcast / reduce, destinations that are
    constants, and one tensor.empty shared by several ops (module doc). ``views``: calls
    often take slices (strided views), and helpers often return a write into a parameter.
    ``arg_loops`` / ``multi_outs`` / ``high_rank`` / ``slice_writes``: the classes of
    tests/gen_classes.py (its module doc).

    ``size`` is roughly the number of top-level statements of ``@main`` (helpers and
    region bodies are proportionally smaller)."""
    cls = Generator
    if arg_loops or multi_outs or high_rank or slice_writes:
        try:
            from tests.gen_classes import ClassGenerator
        except ImportError:  # tests/ on sys.path
            from gen_classes import ClassGenerator
        cls = ClassGenerator
    return cls(seed, size, avoid_known_miscompiles, forall, cf, dps, views, arg_loops,
               multi_outs, high_rank, slice_writes).generate()


# ---------------------------------------------------------------------- known miscompiles

_PRINT_DECL = "func.func private @printMemrefF32(tensor<*xf32>)\n"


def known_miscompile_programs() -> dict[str, str]:
    """One small program per One-Shot miscompile of mlir-opt 22 (DESIGN.md §5).

    For each, the reference pipeline's output differs from the copy-before-write
    semantic reference (or the reference run crashes): ``return_twice`` prints
    ``[5,5,5,5]`` twice instead of ``[1,1,1,1]`` then ``[5,5,5,5]``; ``yield_constant``
    writes into a read-only global (crash) instead of printing ``[1,2,3,4]`` twice;
    ``yield_twice`` prints 6s instead of 7s."""
    return {
        # callee returns one fresh tensor twice; the caller writes result #0 in place and
        # then reads result #1, which One-Shot assumes to be a distinct buffer.
        "return_twice": """\
func.func @twice(%v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y, %y : tensor<4xf32>, tensor<4xf32>
}

func.func @main() {
  %one = arith.constant 1.000000e+00 : f32
  %five = arith.constant 5.000000e+00 : f32
  %r:2 = call @twice(%one) : (f32) -> (tensor<4xf32>, tensor<4xf32>)
  %z = linalg.fill ins(%five : f32) outs(%r#0 : tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %r#1 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %w = tensor.cast %z : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%w) : (tensor<*xf32>) -> ()
  return
}

""" + _PRINT_DECL,
        # the loop yields an arith.constant; next iteration writes its iter_arg in place,
        # i.e. into the read-only global backing the constant.
        "yield_constant": """\
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %seven = arith.constant 7.000000e+00 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%seven : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %init) -> (tensor<4xf32>) {
    %s = tensor.extract %t[%c0] : tensor<4xf32>
    %w = tensor.insert %s into %t[%c2] : tensor<4xf32>
    %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    scf.yield %k : tensor<4xf32>
  }
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %k2 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %v = tensor.cast %k2 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}

""" + _PRINT_DECL,
        # %s is yielded to both iter_args; the next iteration writes %a in place and then
        # reads %b, which shares the buffer in One-Shot's output.
        "yield_twice": """\
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.000000e+00 : f32
  %three = arith.constant 3.000000e+00 : f32
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %y = linalg.fill ins(%one : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%a = %x, %b = %y)
      -> (tensor<4xf32>, tensor<4xf32>) {
    %a2 = linalg.fill ins(%three : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
    %e3 = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%a2, %b : tensor<4xf32>, tensor<4xf32>)
                    outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s, %s : tensor<4xf32>, tensor<4xf32>
  }
  %u = tensor.cast %r#0 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %r#1 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}

""" + _PRINT_DECL,
    }


#: The correct output (``RunResult.data``, printMemref headers removed) of each
#: known-miscompile program, as given by the copy-before-write semantic reference.
KNOWN_MISCOMPILE_EXPECTED = {
    "return_twice": "[1,  1,  1,  1]\n[5,  5,  5,  5]",
    "yield_constant": "[1,  2,  3,  4]\n[1,  2,  3,  4]",
    "yield_twice": "[7,  7,  7,  7]\n[7,  7,  7,  7]",
}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", type=int, default=10)
    ap.add_argument("--forall", action="store_true", help="also generate scf.forall loops")
    ap.add_argument("--cf", action="store_true", help="also generate cf branches in helpers")
    ap.add_argument("--dps", action="store_true",
                    help="also linalg.map/transpose/broadcast/reduce, constant and shared-empty "
                         "destinations")
    ap.add_argument("--views", action="store_true",
                    help="calls take slices, helpers return writes into parameters")
    for flag, what in CLASS_FLAGS.items():
        ap.add_argument(f"--{flag}", action="store_true", help=what)
    ap.add_argument("--allow-known-miscompiles", action="store_true",
                    help="do not avoid the three known mlir-opt miscompile shapes")
    ap.add_argument("--known", metavar="NAME",
                    help="print the hand-written known-miscompile program NAME instead")
    a = ap.parse_args(argv)
    if a.known:
        print(known_miscompile_programs()[a.known], end="")
        return
    classes = {f.replace("-", "_"): getattr(a, f.replace("-", "_")) for f in CLASS_FLAGS}
    print(generate(a.seed, a.size, not a.allow_known_miscompiles, a.forall, a.cf, a.dps,
                   a.views, **classes), end="")


if __name__ == "__main__":
    main()
