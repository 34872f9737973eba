"""Seeded random generator of runnable vector-transfer programs on tensors (issue 10).

``generate(seed)`` returns a module whose ``@kernel`` reads vectors from a live
``tensor<4x8xf32>``, computes on them and writes them back, in steps drawn from:

* a tile: ``tensor.extract_slice`` of the current tensor, ``vector.transfer_read`` of the
  tile, arithmetic with a broadcast scalar or with a transposed read of a second input,
  ``vector.transfer_write`` into the tile, ``tensor.insert_slice`` back;
* a row (rows 1..3) read and written back in place, the write masked or not;
* an ``scf.for`` over the rows, each read, computed and written into the loop-carried
  tensor;
* a read of the *original* input (a reduction printed with ``vector.print``), which keeps
  its buffer live while later steps write into tensors derived from it;
* a row written into the original input itself and read back (a second chain of writes
  from the input: one of the two needs a copy);

and ends with a covering write of the result into a fresh ``tensor.empty``. ``@main``
prints both results and the input. Row writes never start at row 0 and masks never come
with all-zero indices: mlir-opt 22 misjudges such writes as covering (tests/vector_differs),
and the programs are meant to compare with its pipeline.

CLI: ``python -m tests.gen_vector_programs 3`` prints the program of seed 3.
"""

from __future__ import annotations

import random
import sys

T = "tensor<4x8xf32>"
U = "tensor<8x4xf32>"
TILES = [(2, 4), (1, 8), (2, 2), (4, 4)]
OPS = ["arith.addf", "arith.mulf", "arith.subf"]
SCALARS = ["0.5", "2.0", "-1.0", "1.5"]


class _Kernel:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.lines: list[str] = []
        self.n = 0
        self.cur = "%t"

    def fresh(self, stem: str) -> str:
        self.n += 1
        return f"%{stem}{self.n}"

    def emit(self, line: str, indent: int = 1) -> None:
        self.lines.append("  " * indent + line)

    def operand(self, vt: str, i: int, j: int, r: int, c: int) -> str:
        """A second operand: a broadcast scalar or a transposed read of %u."""
        if self.rng.random() < 0.5:
            b = self.fresh("b")
            self.emit(f"{b} = vector.broadcast %s : f32 to {vt}")
            return b
        x = self.fresh("x")
        self.emit(f"{x} = vector.transfer_read %u[%c{j}, %c{i}], %pad {{permutation_map = #tr, "
                  f"in_bounds = [true, true]}} : {U}, {vt}")
        return x

    def tile(self) -> None:
        r, c = self.rng.choice(TILES)
        i, j = self.rng.randrange(0, 4, r), self.rng.randrange(0, 8, c)
        tt, vt = f"tensor<{r}x{c}xf32>", f"vector<{r}x{c}xf32>"
        s, a, y, w, u = (self.fresh(k) for k in ("s", "a", "y", "w", "u"))
        self.emit(f"{s} = tensor.extract_slice {self.cur}[{i}, {j}] [{r}, {c}] [1, 1] : {T} to {tt}")
        self.emit(f"{a} = vector.transfer_read {s}[%c0, %c0], %pad {{in_bounds = [true, true]}} "
                  f": {tt}, {vt}")
        other = self.operand(vt, i, j, r, c)
        self.emit(f"{y} = {self.rng.choice(OPS)} {a}, {other} : {vt}")
        self.emit(f"{w} = vector.transfer_write {y}, {s}[%c0, %c0] {{in_bounds = [true, true]}} "
                  f": {vt}, {tt}")
        self.emit(f"{u} = tensor.insert_slice {w} into {self.cur}[{i}, {j}] [{r}, {c}] [1, 1] "
                  f": {tt} into {T}")
        self.cur = u

    def row(self) -> None:
        i = self.rng.randrange(1, 4)
        a, b, y, w = (self.fresh(k) for k in ("a", "b", "y", "w"))
        self.emit(f"{a} = vector.transfer_read {self.cur}[%c{i}, %c0], %pad "
                  f"{{in_bounds = [true]}} : {T}, vector<8xf32>")
        self.emit(f"{b} = vector.broadcast %s : f32 to vector<8xf32>")
        self.emit(f"{y} = {self.rng.choice(OPS)} {a}, {b} : vector<8xf32>")
        mask = ""
        if self.rng.random() < 0.5:
            m = self.fresh("m")
            self.emit(f"{m} = vector.create_mask %c{self.rng.randrange(1, 8)} : vector<8xi1>")
            mask = f", {m}"
        self.emit(f"{w} = vector.transfer_write {y}, {self.cur}[%c{i}, %c0]{mask} "
                  f"{{in_bounds = [true]}} : vector<8xf32>, {T}")
        self.cur = w

    def loop(self) -> None:
        r, acc, a, b, y, w = (self.fresh(k) for k in ("r", "acc", "a", "b", "y", "w"))
        iv = self.fresh("i")
        self.emit(f"{r} = scf.for {iv} = %c0 to %c4 step %c1 iter_args({acc} = {self.cur}) "
                  f"-> ({T}) {{")
        self.emit(f"{a} = vector.transfer_read {acc}[{iv}, %c0], %pad {{in_bounds = [true]}} "
                  f": {T}, vector<8xf32>", 2)
        self.emit(f"{b} = vector.broadcast %s : f32 to vector<8xf32>", 2)
        self.emit(f"{y} = {self.rng.choice(OPS)} {a}, {b} : vector<8xf32>", 2)
        self.emit(f"{w} = vector.transfer_write {y}, {acc}[{iv}, %c0] {{in_bounds = [true]}} "
                  f": vector<8xf32>, {T}", 2)
        self.emit(f"scf.yield {w} : {T}", 2)
        self.emit("}")
        self.cur = r

    def fork(self) -> None:
        """A row written into the *input* (not the current tensor) and read back: while
        the current tensor may share the input's buffer, the write needs a copy."""
        i = self.rng.randrange(1, 4)
        b, w, a, s = (self.fresh(k) for k in ("b", "w", "a", "sum"))
        self.emit(f"{b} = vector.broadcast %s : f32 to vector<8xf32>")
        self.emit(f"{w} = vector.transfer_write {b}, %t[%c{i}, %c0] {{in_bounds = [true]}} "
                  f": vector<8xf32>, {T}")
        self.emit(f"{a} = vector.transfer_read {w}[%c{i}, %c4], %pad {{in_bounds = [true]}} "
                  f": {T}, vector<4xf32>")
        self.emit(f"{s} = vector.reduction <mul>, {a} : vector<4xf32> into f32")
        self.emit(f"vector.print {s} : f32")

    def read_input(self) -> None:
        i, j = self.rng.randrange(0, 4), self.rng.randrange(0, 8, 4)
        a, s = self.fresh("a"), self.fresh("sum")
        self.emit(f"{a} = vector.transfer_read %t[%c{i}, %c{j}], %pad {{in_bounds = [true]}} "
                  f": {T}, vector<4xf32>")
        self.emit(f"{s} = vector.reduction <add>, {a} : vector<4xf32> into f32")
        self.emit(f"vector.print {s} : f32")


def generate(seed: int) -> str:
    rng = random.Random(seed)
    k = _Kernel(rng)
    steps = [rng.choice([k.tile, k.row, k.loop])]
    steps += [rng.choice([k.tile, k.tile, k.row, k.loop, k.read_input, k.fork])
              for _ in range(rng.randrange(1, 4))]
    rng.shuffle(steps)
    for step in steps:
        step()
    v, e, f = k.fresh("v"), k.fresh("e"), k.fresh("f")
    k.emit(f"{v} = vector.transfer_read {k.cur}[%c0, %c0], %pad {{in_bounds = [true, true]}} "
           f": {T}, vector<4x8xf32>")
    k.emit(f"{e} = tensor.empty() : {T}")
    k.emit(f"{f} = vector.transfer_write {v}, {e}[%c0, %c0] {{in_bounds = [true, true]}} "
           f": vector<4x8xf32>, {T}")
    k.emit(f"return {k.cur}, {f} : {T}, {T}")
    consts = "\n".join(f"  %c{n} = arith.constant {n} : index" for n in range(9))
    t_vals = ", ".join("[" + ", ".join(f"{10 * a + b}.0" for b in range(8)) + "]" for a in range(4))
    u_vals = ", ".join("[" + ", ".join(f"{a}.{b}" for b in (1, 2, 5, 7)) + "]" for a in range(8))
    return f"""// gen_vector_programs seed {seed}
#tr = affine_map<(a, b) -> (b, a)>
func.func @kernel(%t: {T}, %u: {U}, %s: f32) -> ({T}, {T}) {{
{consts}
  %pad = arith.constant 0.0 : f32
{chr(10).join(k.lines)}
}}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {{
  %t = arith.constant dense<[{t_vals}]> : {T}
  %u = arith.constant dense<[{u_vals}]> : {U}
  %s = arith.constant {rng.choice(SCALARS)} : f32
  %r:2 = call @kernel(%t, %u, %s) : ({T}, {U}, f32) -> ({T}, {T})
  %p0 = tensor.cast %r#0 : {T} to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %p1 = tensor.cast %r#1 : {T} to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %p2 = tensor.cast %t : {T} to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}}
"""


if __name__ == "__main__":
    print(generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0), end="")
