"""Four more classes of programs for the random generator (tests/gen_programs.py), each
behind a flag of ``generate`` (off by default; with all four off the generator draws the
same random numbers as before, so existing (seed, size) programs are unchanged):

``arg_loops``
    ``scf.for`` / ``scf.while`` / ``scf.forall`` whose bounds are a helper's index
    parameters ``%lb`` and ``%ub`` (``@main`` passes ``0 <= lb <= ub <= 2``, and calls each
    such helper with ``lb == ub``, zero trips, and with ``lb < ub``) or constants (zero
    trips too). The body first overwrites the iteration argument without reading it (a
    fill, a copy, a negation of another value, a whole ``insert_slice``; a forall thread
    its tile), and the init is read again after the loop.
``multi_outs``
    ``linalg.generic`` with two or three results; one tensor is often two of its ``outs``
    operands (or an ``ins`` operand is also an ``outs`` one); bodies may read ``outs``
    arguments that hold a value.
``high_rank``
    rank-reducing ``tensor.extract_slice`` / ``tensor.insert_slice`` of tensors of rank
    4 to 7 with unit dimensions anywhere (down to rank 0), DPS writes into such slices,
    slices inserted back at the same or other offsets, slices of slices.
``slice_writes``
    two or three slice writes (``insert_slice``, a DPS write into an ``extract_slice``,
    with or without inserting it back) into one tensor whose earlier value is read again
    afterwards, at static offsets, constant SSA ones and symbolic ones (an index parameter
    or loop variable plus or minus a constant), disjoint or overlapping; and loops whose
    iteration ``i`` writes the slice at ``i * s + c`` of a tensor defined before the loop
    (or carried by it) and reads the element that iteration ``i - 1`` wrote or that
    iteration ``i + 1`` will write.
"""

from __future__ import annotations

try:
    from tests.gen_programs import (
        CLAMP,
        FORALL_TILES,
        LIMIT,
        SHAPES,
        Block,
        Func,
        Generator,
        Val,
        _its,
        _nested,
        _numel,
        fnum,
        idmap,
        ttype,
    )
except ImportError:  # tests/ on sys.path
    from gen_programs import (
        CLAMP,
        FORALL_TILES,
        LIMIT,
        SHAPES,
        Block,
        Func,
        Generator,
        Val,
        _its,
        _nested,
        _numel,
        fnum,
        idmap,
        ttype,
    )

__all__ = ["ClassGenerator"]

#: slice_writes: parent shape -> [(slice sizes, result shape: sizes rank-reduced or not)]
SLICE_WRITES = {
    (8,): [((2,), (2,)), ((4,), (4,)), ((3,), (3,)), ((1,), (1,))],
    (4, 4): [((1, 4), (4,)), ((2, 4), (2, 4)), ((2, 2), (2, 2)), ((4, 1), (4,)),
             ((1, 2), (1, 2))],
    (2, 8): [((1, 8), (8,)), ((2, 4), (2, 4)), ((1, 4), (4,)), ((2, 2), (2, 2))],
}
MAX_TRIPS = 2  # loop bounds from parameters and constants: 0 <= lb <= ub <= 2


def _slice_text(offs: list[str], sizes) -> str:
    return f"[{', '.join(offs)}] [{', '.join(map(str, sizes))}] [{', '.join('1' for _ in sizes)}]"


class ClassGenerator(Generator):
    """Generator with the statements of the four classes (module doc)."""

    # ---------------------------------------------------------------- hooks
    def new_classes(self) -> bool:
        return True

    def class_kinds(self, b: Block) -> list:
        kinds = []
        if self.multi_outs:
            kinds.append((self.st_multi_generic, 4))
        if self.high_rank:
            kinds.append((self.st_high_rank, 4))
        if self.slice_writes:
            kinds.append((self.st_slice_writes, 4))
        return kinds

    def class_loop_kinds(self, b: Block) -> list:
        kinds = []
        if self.arg_loops:
            kinds += [(self.st_arg_for, 3), (self.st_arg_while, 2), (self.st_arg_forall, 2)]
        if self.slice_writes:
            kinds.append((self.st_slice_loop, 3))
        return kinds

    def call_bounds(self, f: Func) -> tuple[str, str]:
        """(lb, ub) of a call of ``f``: equal (zero trips) if ``f`` was never called so,
        else unequal if it never was, else either."""
        seen = self.trips.setdefault(f.name, set())
        zero = (self.rng.random() < 0.4 if len(seen) != 1 else "nonzero" in seen)
        if zero:
            lb = ub = self.rng.randint(0, MAX_TRIPS)
        else:
            lb = self.rng.randint(0, MAX_TRIPS - 1)
            ub = self.rng.randint(lb + 1, MAX_TRIPS)
        seen.add("zero" if zero else "nonzero")
        return f"%c{lb}", f"%c{ub}"

    def call_zero_and_nonzero_trips(self, b: Block) -> None:
        """Call each helper with loop-bound parameters again if it was called with only
        zero trips or only with some."""
        for f in self.funcs:
            if "lb" in f.params and len(self.trips.get(f.name, ())) == 1:
                self.call(b, f)

    def min_helpers(self) -> int:
        """Loop bounds and symbolic offsets come from helpers' parameters."""
        return 1 if self.arg_loops or self.slice_writes else 0

    def more_results(self, n: int) -> int:
        """Helpers return one more value: more of what they computed is printed."""
        return n + 1

    @property
    def trips(self) -> dict[str, set[str]]:
        if not hasattr(self, "_trips"):
            self._trips: dict[str, set[str]] = {}
        return self._trips

    # ---------------------------------------------------------------- values
    def new_varied(self, b: Block, shape) -> Val:
        """A writable tensor whose elements differ (a dense constant of distinct values
        copied into a tensor.empty): a read at a wrong offset shows."""
        n = _numel(shape)
        start = self.rng.randrange(32)
        sign = self.rng.choice([1, -1])
        vals = [sign * (((start + i) % 32) * 0.5 - 7.5) for i in range(n)]
        k, e, v = self.fresh("k"), self.fresh("e"), self.fresh()
        t = ttype(shape)
        b.emit(f"{k} = arith.constant dense<{_nested(vals, shape)}> : {t}")
        b.emit(f"{e} = tensor.empty() : {t}")
        b.emit(f"{v} = linalg.copy ins({k} : {t}) outs({e} : {t}) -> {t}")
        return self.add(b, Val(v, shape, max(abs(x) for x in vals)))

    def pick_varied(self, b: Block, shape, p: float = 0.5) -> Val:
        """``new_varied`` with probability ``p``, else ``pick``."""
        if self.rng.random() < p:
            return self.new_varied(b, shape)
        return self.pick(b, shape)

    # ---------------------------------------------------------------- index values
    def index_const(self, b: Block, k: int) -> str:
        if 0 <= k <= 4:
            return f"%c{k}"
        name = self.fresh("ci")
        b.emit(f"{name} = arith.constant {k} : index")
        return name

    def at(self, b: Block, shape) -> str:
        """A random element position of ``shape`` (constant index values)."""
        return ", ".join(self.index_const(b, self.rng.randrange(n)) for n in shape)

    def index_plus(self, b: Block, v: str, c: int) -> str:
        """``v + c`` as an SSA value (``v`` itself when ``c`` is 0)."""
        if c == 0:
            return v
        name = self.fresh("x")
        op = "addi" if c > 0 else "subi"
        b.emit(f"{name} = arith.{op} {v}, {self.index_const(b, abs(c))} : index")
        return name

    def offset(self, b: Block, room: int, base=None) -> tuple[str, tuple | None]:
        """An offset in [0, room] as text: a literal, a constant SSA value, or a symbolic
        index value (``base`` if given and it fits, else one in scope) plus a constant.
        Returns the text and the symbolic base used (or None)."""
        fits = [x for x in b.indices if x[2] - x[1] <= room]
        r = self.rng.random()
        if base is not None and base in fits and r < 0.8:
            sym = base
        elif fits and r < 0.55:
            sym = self.rng.choice(fits)
        else:
            k = self.rng.randint(0, room)
            return (str(k) if self.rng.random() < 0.5 or k > 4 else f"%c{k}"), base
        name, lo, hi = sym
        return self.index_plus(b, name, self.rng.randint(-lo, room - hi)), sym

    def loop_bounds(self, b: Block) -> tuple[str, str, tuple[int, int] | None]:
        """(lb, ub, range of the induction variable or None if the loop never runs):
        the helper's parameters, or constants with 0 <= lb <= ub <= 2."""
        if b.arg_bounds and self.rng.random() < 0.8:
            return b.arg_bounds[0], b.arg_bounds[1], (0, MAX_TRIPS - 1)
        lb = self.rng.randint(0, MAX_TRIPS)
        ub = min(MAX_TRIPS, lb + self.rng.choice([0, 0, 1, 2]))
        return f"%c{lb}", f"%c{ub}", ((lb, ub - 1) if ub > lb else None)

    # ---------------------------------------------------------------- writes
    def overwrite(self, b: Block, a: Val) -> Val:
        """A write of all of ``a`` that does not read it (a's DPS chain continues)."""
        t, r = ttype(a.shape), len(a.shape)
        kind = self.rng.choice(["fill", "copy", "neg", "insert_slice"] +
                               (["map"] if self.dps else []))
        others = [v for v in b.of_shape(a.shape) if v.name != a.name]
        x = self.bounded(b, others[-1] if others and self.rng.random() < 0.5
                         else self.pick(b, a.shape, avoid_name=a.name), CLAMP)
        a.overwritten = True
        v = self.fresh()
        if kind == "fill":
            s, sb = self.scalar(b)
            b.emit(f"{v} = linalg.fill ins({s} : f32) outs({a.name} : {t}) -> {t}")
            bound = sb
        elif kind == "copy":
            b.emit(f"{v} = linalg.copy ins({x.name} : {t}) outs({a.name} : {t}) -> {t}")
            bound = x.bound
        elif kind == "neg":
            y, z = self.fresh("b"), self.fresh("b")
            b.emit(f"{v} = linalg.generic {{indexing_maps = [{idmap(r)}, {idmap(r)}], "
                   f"iterator_types = [{_its(r)}]}} ins({x.name} : {t}) outs({a.name} : {t}) {{")
            b.emit(f"^bb0({y}: f32, {self.fresh('b')}: f32):")
            b.emit(f"  {z} = arith.negf {y} : f32")
            b.emit(f"  linalg.yield {z} : f32")
            b.emit(f"}} -> {t}")
            bound = x.bound
        elif kind == "map":
            b.emit(f"{v} = linalg.map {{ arith.negf }} ins({x.name} : {t}) outs({a.name} : {t})")
            bound = x.bound
        else:  # insert_slice of the whole tensor
            zeros = ["0"] * r
            b.emit(f"{v} = tensor.insert_slice {x.name} into {a.name}{_slice_text(zeros, a.shape)}"
                   f" : {t} into {t}")
            bound = x.bound
        return self.add(b, Val(v, a.shape, bound, root=a.root or a.name, origin=a.origin))

    def write_into(self, b: Block, s: Val) -> Val:
        """A DPS write into ``s`` (a slice): a fill, an insert of a scalar, a negation of
        another value or ``s + x``."""
        t, r = ttype(s.shape), len(s.shape)
        kinds = ["fill", "insert"] + (["neg", "add"] if r else [])
        kind = self.rng.choice(kinds)
        v = self.fresh()
        s.overwritten = True
        if kind == "fill":
            sc, sb = self.scalar(b)
            b.emit(f"{v} = linalg.fill ins({sc} : f32) outs({s.name} : {t}) -> {t}")
            bound = sb
        elif kind == "insert":
            sc, sb = self.scalar(b)
            idx = self.at(b, s.shape)
            b.emit(f"{v} = tensor.insert {sc} into {s.name}[{idx}] : {t}")
            bound = max(sb, s.bound)
        elif kind == "neg":
            x = self.pick(b, s.shape)
            y, z = self.fresh("b"), self.fresh("b")
            b.emit(f"{v} = linalg.generic {{indexing_maps = [{idmap(r)}, {idmap(r)}], "
                   f"iterator_types = [{_its(r)}]}} ins({x.name} : {t}) outs({s.name} : {t}) {{")
            b.emit(f"^bb0({y}: f32, {self.fresh('b')}: f32):")
            b.emit(f"  {z} = arith.negf {y} : f32")
            b.emit(f"  linalg.yield {z} : f32")
            b.emit(f"}} -> {t}")
            bound = x.bound
        else:
            x = self.bounded(b, self.pick(b, s.shape, avoid_name=s.name), LIMIT)
            sv = self.bounded(b, s, LIMIT) if s.bound > LIMIT else s
            b.emit(f"{v} = linalg.add ins({sv.name}, {x.name} : {t}, {t}) "
                   f"outs({sv.name} : {t}) -> {t}")
            bound = sv.bound + x.bound
            s = sv
        return self.add(b, Val(v, s.shape, bound, root=s.root or s.name, origin=s.origin))

    def read_again(self, b: Block, init: Val, res: Val) -> None:
        """Read ``init`` after the loop that overwrote (a copy of) it: combined with the
        loop's result ``res``, or one of its elements inserted into ``res``."""
        init.overwritten = True
        t = ttype(init.shape)
        if self.rng.random() < 0.5:
            x, y = self.bounded(b, res, LIMIT), self.bounded(b, init, LIMIT)
            e, v = self.empty(b, init.shape), self.fresh()
            b.emit(f"{v} = linalg.add ins({x.name}, {y.name} : {t}, {t}) outs({e} : {t}) -> {t}")
            self.add(b, Val(v, init.shape, x.bound + y.bound))
        else:
            s = self.fresh("s")
            idx = self.at(b, init.shape)
            b.emit(f"{s} = tensor.extract {init.name}[{idx}] : {t}")
            b.scalars.append((s, init.bound))
            idx2 = self.at(b, init.shape)
            v = self.fresh()
            b.emit(f"{v} = tensor.insert {s} into {res.name}[{idx2}] : {t}")
            self.add(b, Val(v, init.shape, max(res.bound, init.bound), root=res.name))

    # ---------------------------------------------------------------- arg_loops
    def loop_body(self, b: Block, args: list[Val], iv_range, *ivs: str) -> Block:
        body = self.sub_block(b)
        if iv_range is not None:
            body.indices += [(iv, *iv_range) for iv in ivs]
        for a in args:
            body.env.append(a)
        if self.rng.random() < 0.2:  # a read of something else first
            self.stmts(body, 1)
        for a in args[: self.rng.randint(1, len(args))]:
            self.overwrite(body, a)
        self.stmts(body, self.rng.randint(0, max(1, self.size // 4)))
        return body

    def loop_init(self, b: Block, shape) -> Val:
        """An init: often a tensor parameter of the helper (the caller's value), else a
        new tensor of distinct values or any value."""
        params = [v for v in b.env if v.name.startswith("%arg") and v.shape == shape]
        if params and self.rng.random() < 0.4:
            return self.rng.choice(params)
        return self.pick_varied(b, shape, 0.3)

    def st_arg_for(self, b: Block):
        lb, ub, iv_range = self.loop_bounds(b)
        k = self.rng.choice([1, 1, 2])
        if k == 1 and self.rng.random() < 0.2:
            return self.arg_for_dynamic(b, lb, ub, iv_range)
        inits = [self.loop_init(b, self.rng.choice(SHAPES)) for _ in range(k)]
        if k == 2 and inits[0].name == inits[1].name:
            inits[1] = self.new_fill(b, inits[1].shape)
        res, iv = self.fresh("r"), self.fresh("i")
        args = [Val(self.fresh("a"), v.shape, max(v.bound, CLAMP)) for v in inits]
        for a in args:
            a.root = a.name
        body = self.loop_body(b, args, iv_range, iv)
        yields = self.pick_yields(body, args)
        types = ", ".join(ttype(a.shape) for a in args)
        head = f"{res}:{k} = " if k > 1 else f"{res} = "
        b.emit(f"{head}scf.for {iv} = {lb} to {ub} step %c1 iter_args("
               + ", ".join(f"{a.name} = {v.name}" for a, v in zip(args, inits, strict=True))
               + f") -> ({types}) {{")
        b.lines += body.lines
        b.emit(f"  scf.yield {', '.join(y.name for y in yields)} : {types}")
        b.emit("}")
        outs = []
        for i, a in enumerate(args):
            nm = f"{res}#{i}" if k > 1 else res
            outs.append(self.add(b, Val(nm, a.shape, a.bound,
                                        const=yields[i].const or inits[i].const)))
        for init, out in zip(inits, outs, strict=True):
            if self.rng.random() < 0.8:
                self.read_again(b, init, out)

    def arg_for_dynamic(self, b: Block, lb: str, ub: str, iv_range) -> None:
        """The loop of st_arg_for on a dynamically shaped ``tensor<?xf32>`` (a cast of a
        1-d init), cast back after the loop."""
        shape = self.rng.choice([s for s in SHAPES if len(s) == 1])
        init = self.loop_init(b, shape)
        t, dt = ttype(shape), "tensor<?xf32>"
        d, res, iv, a, r = (self.fresh(p) for p in ("d", "r", "i", "a", "d"))
        b.emit(f"{d} = tensor.cast {init.name} : {t} to {dt}")
        body = self.sub_block(b)
        if iv_range is not None:
            body.indices.append((iv, *iv_range))
        if self.rng.random() < 0.3:
            self.stmts(body, 1)
        w = self.fresh()
        sc, bound = self.scalar(body)
        if self.rng.random() < 0.7:  # overwrite all of it
            body.emit(f"{w} = linalg.fill ins({sc} : f32) outs({a} : {dt}) -> {dt}")
        else:  # one element
            body.emit(f"{w} = tensor.insert {sc} into {a}[{self.at(body, shape)}] : {dt}")
            bound = max(bound, init.bound)
        if self.rng.random() < 0.5:
            self.stmts(body, 1)
        b.emit(f"{res} = scf.for {iv} = {lb} to {ub} step %c1 iter_args({a} = {d}) -> ({dt}) {{")
        b.lines += body.lines
        b.emit(f"  scf.yield {w} : {dt}")
        b.emit("}")
        b.emit(f"{r} = tensor.cast {res} : {dt} to {t}")
        out = self.add(b, Val(r, shape, max(bound, init.bound), const=init.const))
        self.read_again(b, init, out)

    def st_arg_while(self, b: Block):
        lb, ub, iv_range = self.loop_bounds(b)
        init = self.loop_init(b, self.rng.choice(SHAPES))
        t = ttype(init.shape)
        res = self.fresh("w")
        a0, k0, cmp = self.fresh("a"), self.fresh("n"), self.fresh("p")
        a = Val(self.fresh("a"), init.shape, max(init.bound, CLAMP))
        a.root = a.name
        k1, k2 = self.fresh("n"), self.fresh("n")
        body = self.loop_body(b, [a], iv_range, k1)
        (y,) = self.pick_yields(body, [a])
        b.emit(f"{res}:2 = scf.while ({a0} = {init.name}, {k0} = {lb}) : ({t}, index) -> "
               f"({t}, index) {{")
        b.emit(f"  {cmp} = arith.cmpi slt, {k0}, {ub} : index")
        b.emit(f"  scf.condition({cmp}) {a0}, {k0} : {t}, index")
        b.emit("} do {")
        b.emit(f"^bb0({a.name}: {t}, {k1}: index):")
        b.lines += body.lines
        b.emit(f"  {k2} = arith.addi {k1}, %c1 : index")
        b.emit(f"  scf.yield {y.name}, {k2} : {t}, index")
        b.emit("}")
        out = self.add(b, Val(f"{res}#0", init.shape, a.bound, const=y.const or init.const))
        if self.rng.random() < 0.8:
            self.read_again(b, init, out)

    def st_arg_forall(self, b: Block):
        """scf.forall from lb to ub over tiles of a shared_outs tensor: each thread writes
        its whole tile without reading it; the tiles outside [lb, ub) keep the init's
        values."""
        lb, ub, iv_range = self.loop_bounds(b)
        shape, tile, dim = self.rng.choice(FORALL_TILES)
        init = self.pick_varied(b, shape, 0.3)
        t, tt = ttype(shape), ttype(tile)
        res, iv, o, off = self.fresh("r"), self.fresh("i"), self.fresh("o"), self.fresh("off")
        body = self.sub_block(b)
        if iv_range is not None:
            body.indices.append((iv, *iv_range))
        body.emit(f"{off} = arith.muli {iv}, %c{tile[dim]} : index")
        offs = ["0"] * len(shape)
        offs[dim] = off
        sl = _slice_text(offs, tile)
        if self.rng.random() < 0.3:
            self.stmts(body, 1)
        r = self.rng.random()
        if r < 0.5:  # fill the thread's own tile of the shared output
            own = self.fresh("s")
            body.emit(f"{own} = tensor.extract_slice {o}{sl} : {t} to {tt}")
            sc, bound = self.scalar(body)
            w = self.fresh("v")
            body.emit(f"{w} = linalg.fill ins({sc} : f32) outs({own} : {tt}) -> {tt}")
        elif r < 0.8:  # copy (or negate) the tile of another tensor into its own tile
            src = self.bounded(b, self.pick(b, shape), CLAMP)
            x, own = self.fresh("s"), self.fresh("s")
            body.emit(f"{x} = tensor.extract_slice {src.name}{sl} : {t} to {tt}")
            body.emit(f"{own} = tensor.extract_slice {o}{sl} : {t} to {tt}")
            w = self.fresh("v")
            if self.rng.random() < 0.5:
                body.emit(f"{w} = linalg.copy ins({x} : {tt}) outs({own} : {tt}) -> {tt}")
            else:
                rt = len(tile)
                y, z = self.fresh("b"), self.fresh("b")
                body.emit(f"{w} = linalg.generic {{indexing_maps = [{idmap(rt)}, {idmap(rt)}], "
                          f"iterator_types = [{_its(rt)}]}} ins({x} : {tt}) outs({own} : {tt}) {{")
                body.emit(f"^bb0({y}: f32, {self.fresh('b')}: f32):")
                body.emit(f"  {z} = arith.negf {y} : f32")
                body.emit(f"  linalg.yield {z} : f32")
                body.emit(f"}} -> {tt}")
            bound = src.bound
        else:  # a fresh tensor
            fv = self.new_fill(body, tile)
            w, bound = fv.name, fv.bound
        b.emit(f"{res} = scf.forall ({iv}) = ({lb}) to ({ub}) step (%c1) "
               f"shared_outs({o} = {init.name}) -> ({t}) {{")
        b.lines += body.lines
        b.emit("  scf.forall.in_parallel {")
        b.emit(f"    tensor.parallel_insert_slice {w} into {o}{sl} : {tt} into {t}")
        b.emit("  }")
        b.emit("}")
        out = self.add(b, Val(res, shape, max(init.bound, bound), const=init.const))
        if self.rng.random() < 0.8:
            self.read_again(b, init, out)

    # ---------------------------------------------------------------- multi_outs
    def st_multi_generic(self, b: Block):
        """A linalg.generic with 2 or 3 results; outs often repeated."""
        shape = self.rng.choice(SHAPES)
        t, r = ttype(shape), len(shape)
        ins = [self.bounded(b, self.pick(b, shape), CLAMP)
               for _ in range(self.rng.choice([1, 1, 2]))]
        outs: list[tuple[str, Val | None]] = []
        for _ in range(self.rng.choice([2, 2, 3])):
            if outs and self.rng.random() < 0.5:
                outs.append(self.rng.choice(outs))  # one tensor as two outs operands
            else:
                name, d = self.dest(b, shape, ins)
                if d is not None and d.bound > CLAMP:
                    d = self.bounded(b, d, CLAMP)
                    d.overwritten = True
                    name = d.name
                outs.append((name, d))
        iargs = [self.fresh("b") for _ in ins]
        oargs = [self.fresh("b") for _ in outs]
        body, ys, bounds = [], [], []
        for _ in outs:
            readable = [(a, d.bound) for a, (_, d) in zip(oargs, outs, strict=True)
                        if d is not None]
            choices = ["in", "neg", "add", "scale"] + (["acc"] if readable else [])
            kind = self.rng.choice(choices)
            j = self.rng.randrange(len(ins))
            a, ab = iargs[j], ins[j].bound
            y = self.fresh("b")
            if kind == "in":
                ys.append(a)
                bounds.append(ab)
                continue
            if kind == "neg":
                body.append(f"{y} = arith.negf {a} : f32")
                bounds.append(ab)
            elif kind == "add":
                k = self.rng.randrange(len(ins))
                body.append(f"{y} = arith.addf {a}, {iargs[k]} : f32")
                bounds.append(ab + ins[k].bound)
            elif kind == "scale":
                c = self.fresh("b")
                body.append(f"{c} = arith.constant {fnum(-0.5)} : f32")
                body.append(f"{y} = arith.mulf {a}, {c} : f32")
                bounds.append(0.5 * ab)
            else:  # reads an outs argument that holds a value
                o, ob = self.rng.choice(readable)
                body.append(f"{y} = arith.subf {o}, {a} : f32")
                bounds.append(ob + ab)
            ys.append(y)
        res = self.fresh("m")
        maps = ", ".join(idmap(r) for _ in range(len(ins) + len(outs)))
        b.emit(f"{res}:{len(outs)} = linalg.generic {{indexing_maps = [{maps}], "
               f"iterator_types = [{_its(r)}]}} ins({', '.join(v.name for v in ins)} : "
               f"{', '.join(t for _ in ins)}) outs({', '.join(n for n, _ in outs)} : "
               f"{', '.join(t for _ in outs)}) {{")
        b.emit(f"^bb0({', '.join(f'{x}: f32' for x in iargs + oargs)}):")
        for line in body:
            b.emit("  " + line)
        b.emit(f"  linalg.yield {', '.join(ys)} : {', '.join('f32' for _ in ys)}")
        b.emit(f"}} -> ({', '.join(t for _ in outs)})")
        for i, ((_, d), bound) in enumerate(zip(outs, bounds, strict=True)):
            v = Val(f"{res}#{i}", shape, bound)
            if d is not None:
                v.root, v.origin = d.root or d.name, d.origin
            self.add(b, v)
            v.overwritten = True

    # ---------------------------------------------------------------- high_rank
    def hr_shape(self) -> tuple[int, ...]:
        """One of the program's (up to three) shapes of rank 4 to 7, at most 48 elements,
        unit dimensions anywhere."""
        if len(self.hr_shapes) < 3 and (not self.hr_shapes or self.rng.random() < 0.3):
            while True:
                shape = tuple(self.rng.choice([1, 1, 2, 2, 3, 4])
                              for _ in range(self.rng.choice([4, 5, 6, 7, 7])))
                if _numel(shape) <= 48 and any(d > 1 for d in shape):
                    break
            self.hr_shapes.append(shape)
        return self.rng.choice(self.hr_shapes)

    def rank_slice(self, b: Block, shape: tuple[int, ...]):
        """(offsets, sizes, result shape) of a slice of ``shape`` whose result drops a
        random subset of the unit sizes."""
        sizes = [self.rng.choice([1, d, self.rng.randint(1, d)]) for d in shape]
        offs = [self.offset(b, d - s)[0] if d > s else "0"
                for d, s in zip(shape, sizes, strict=True)]
        p_drop = self.rng.choice([0.3, 0.6, 1.0])
        keep = tuple(s for s in sizes if s != 1 or self.rng.random() >= p_drop)
        return offs, sizes, keep

    def st_high_rank(self, b: Block):
        bigs = [v for v in b.env if len(v.shape) >= 3]
        if bigs and self.rng.random() < 0.3:
            big = self.rng.choice(bigs)  # a slice of a slice, or of an earlier result
        else:
            big = self.bounded(b, self.pick_varied(b, self.hr_shape()), CLAMP)
        bt = ttype(big.shape)
        offs, sizes, small = self.rank_slice(b, big.shape)
        st = ttype(small)
        if self.rng.random() < 0.35:  # insert a value of the slice's shape
            src = self.bounded(b, self.pick(b, small), CLAMP)
            self.insert_hr(b, src, big, offs, sizes)
            return
        s = self.fresh()
        b.emit(f"{s} = tensor.extract_slice {big.name}{_slice_text(offs, sizes)} : {bt} to {st}")
        sv = self.add(b, Val(s, small, big.bound, const=big.const))
        if self.rng.random() < 0.7:
            w = self.write_into(b, sv)
            r = self.rng.random()
            if r < 0.5:
                self.insert_hr(b, w, big, offs, sizes)
            elif r < 0.75:  # at other offsets of the same sizes
                offs2 = [self.offset(b, d - z)[0] if d > z else "0"
                         for d, z in zip(big.shape, sizes, strict=True)]
                self.insert_hr(b, w, big, offs2, sizes)

    def insert_hr(self, b: Block, src: Val, dst: Val, offs, sizes) -> Val:
        dst.overwritten = True
        src = self.bounded(b, src, CLAMP)
        v = self.fresh()
        b.emit(f"{v} = tensor.insert_slice {src.name} into {dst.name}{_slice_text(offs, sizes)}"
               f" : {ttype(src.shape)} into {ttype(dst.shape)}")
        return self.add(b, Val(v, dst.shape, max(src.bound, dst.bound),
                               root=dst.root or dst.name))

    # ---------------------------------------------------------------- slice_writes
    def st_slice_writes(self, b: Block):
        """Two or three slice writes into one tensor ``p``, then ``p`` read again."""
        pshape = self.rng.choice(list(SLICE_WRITES))
        p = self.bounded(b, self.pick_varied(b, pshape), CLAMP)
        pt = ttype(pshape)
        base = None
        cur = p
        prev_offs = None
        for _ in range(self.rng.choice([2, 2, 3])):
            sizes, rshape = self.rng.choice(SLICE_WRITES[pshape])
            if prev_offs and prev_offs[1] == sizes and self.rng.random() < 0.25:
                offs = prev_offs[0]  # the very same slice again
            else:
                offs = []
                for d, s in zip(pshape, sizes, strict=True):
                    if d > s:
                        o, base = self.offset(b, d - s, base)
                    else:
                        o = "0"
                    offs.append(o)
            prev_offs = (offs, sizes)
            dst = cur if self.rng.random() < 0.5 else p  # chain, or the original again
            dst.overwritten = True
            sl = _slice_text(offs, sizes)
            mode = self.rng.choice(["insert", "dps", "dps_back", "dps_back"])
            if mode == "insert":
                src = self.bounded(b, self.pick(b, rshape), CLAMP)
                v = self.fresh()
                b.emit(f"{v} = tensor.insert_slice {src.name} into {dst.name}{sl} : "
                       f"{ttype(rshape)} into {pt}")
                cur = self.add(b, Val(v, pshape, max(src.bound, dst.bound),
                                      root=dst.root or dst.name))
                continue
            s = self.fresh()
            b.emit(f"{s} = tensor.extract_slice {dst.name}{sl} : {pt} to {ttype(rshape)}")
            sv = self.add(b, Val(s, rshape, dst.bound, const=dst.const))
            w = self.bounded(b, self.write_into(b, sv), CLAMP)
            if mode == "dps_back":
                v = self.fresh()
                b.emit(f"{v} = tensor.insert_slice {w.name} into {dst.name}{sl} : "
                       f"{ttype(rshape)} into {pt}")
                cur = self.add(b, Val(v, pshape, max(w.bound, dst.bound),
                                      root=dst.root or dst.name))
        p.overwritten = True
        if cur is not p and self.rng.random() < 0.8:
            self.read_again(b, p, cur)

    def st_slice_loop(self, b: Block):
        """scf.for whose iteration i writes the slice at i * s + cw of a tensor ``p``
        defined before the loop (or of the iteration argument it initialises) and reads
        the element at i * s + cw + dr: written by iteration i - 1 (dr < 0) or to be
        written by iteration i + 1 (dr >= s)."""
        one_d = self.rng.random() < 0.6
        pshape = (8,) if one_d else (4, 4)
        d0 = pshape[0]
        s = self.rng.choice([1, 2]) if one_d else 1
        if b.arg_bounds and self.rng.random() < 0.4:
            lb, ub = b.arg_bounds
            ilo, ihi = 0, MAX_TRIPS - 1
        else:
            lo = self.rng.randint(0, 1)
            hi = self.rng.randint(lo, lo + 2)  # trips: hi - lo + 1
            lb, ub, ilo, ihi = f"%c{lo}", f"%c{hi + 1}", lo, hi
        dr = self.rng.choice([-s, -1, s, s + 1]) if s > 1 else self.rng.choice([-1, 1, 2])
        cws = [c for c in range(-d0, d0)
               if ilo * s + c >= 0 and ihi * s + c + s <= d0
               and ilo * s + c + dr >= 0 and ihi * s + c + dr <= d0 - 1]
        if not cws:
            return self.st_slice_writes(b)
        cw = self.rng.choice(cws)
        p = self.bounded(b, self.pick_varied(b, pshape), CLAMP)
        pt = ttype(pshape)
        carried = self.rng.random() < 0.5  # p is the loop's iteration argument
        res, iv, acc = self.fresh("r"), self.fresh("i"), self.fresh("a")
        tv = Val(self.fresh("a"), pshape, max(p.bound, CLAMP)) if carried else p
        body = self.sub_block(b)
        body.indices.append((iv, ilo, ihi))
        if carried:
            tv.root = tv.name
            body.env.append(tv)
        scaled = iv
        if s > 1:
            scaled = self.fresh("x")
            body.emit(f"{scaled} = arith.muli {iv}, %c{s} : index")
        wo = self.index_plus(body, scaled, cw)
        ro = self.index_plus(body, scaled, cw + dr)
        if one_d:
            sizes, sshape, woffs = (s,), (s,), [wo]
            rd = ro
        else:
            sizes, sshape, woffs = (1, 4), (4,), [wo, "0"]
            rd = f"{ro}, %c{self.rng.randrange(4)}"
        sl = _slice_text(woffs, sizes)
        read_first = self.rng.random() < 0.5
        x = self.fresh("s")
        if read_first:
            body.emit(f"{x} = tensor.extract {tv.name}[{rd}] : {pt}")
        if self.rng.random() < 0.3 and carried:  # insert_slice straight into it
            src = self.bounded(body, self.pick(body, sshape), CLAMP)
            w = src
            newt = self.fresh()
            body.emit(f"{newt} = tensor.insert_slice {src.name} into {tv.name}{sl} : "
                      f"{ttype(sshape)} into {pt}")
        else:
            sv = self.fresh()
            body.emit(f"{sv} = tensor.extract_slice {tv.name}{sl} : {pt} to {ttype(sshape)}")
            w = self.bounded(body, self.write_into(body, Val(sv, sshape, tv.bound)), CLAMP)
            newt = None
            if carried:
                newt = self.fresh()
                body.emit(f"{newt} = tensor.insert_slice {w.name} into {tv.name}{sl} : "
                          f"{ttype(sshape)} into {pt}")
        if not read_first:
            src_t = newt if (newt and self.rng.random() < 0.5) else tv.name
            body.emit(f"{x} = tensor.extract {src_t}[{rd}] : {pt}")
        y, a1, a2 = self.fresh("s"), self.fresh("s"), self.fresh("s")
        body.emit(f"{y} = tensor.extract {w.name}[{', '.join('%c0' for _ in sshape)}] : "
                  f"{ttype(sshape)}")
        body.emit(f"{a1} = arith.addf {acc}, {x} : f32")
        body.emit(f"{a2} = arith.addf {a1}, {y} : f32")
        zero = self.fresh("s")
        b.emit(f"{zero} = arith.constant {fnum(0.0)} : f32")
        iters = f"{acc} = {zero}" + (f", {tv.name} = {p.name}" if carried else "")
        types = "f32" + (f", {pt}" if carried else "")
        b.emit(f"{res}:{2 if carried else 1} = scf.for {iv} = {lb} to {ub} step %c1 "
               f"iter_args({iters}) -> ({types}) {{")
        b.lines += body.lines
        b.emit(f"  scf.yield {a2}{', ' + newt if carried else ''} : {types}")
        b.emit("}")
        trips = (ihi - ilo + 1)
        bound = trips * (max(tv.bound, CLAMP) + CLAMP)
        p.overwritten = True
        # p read after the loop: one of its elements next to the sum
        z = self.fresh("s")
        b.emit(f"{z} = tensor.extract {p.name}[{self.at(b, pshape)}] : {pt}")
        v = self.fresh()
        b.emit(f"{v} = tensor.from_elements {res}#0, {z} : tensor<2xf32>")
        self.add(b, Val(v, (2,), max(bound, p.bound)))
        if carried:
            out = self.add(b, Val(f"{res}#1", pshape, max(p.bound, CLAMP)))
            out.overwritten = True
