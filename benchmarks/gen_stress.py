"""Stress inputs for the benchmarks (and, at small sizes, the tests): valid tensor
programs that mlir-opt-22 parses, analyses and bufferizes.

    python -m benchmarks.gen_stress SHAPE N [-o FILE]

Shapes (N is a count, or megabytes where it says MB):

* ``nested_if N``       N ``scf.if`` nested in each other, the innermost writes the tensor;
* ``insert_chain N``    N ``tensor.insert`` into one tensor, each into the previous result,
                        and a final read of the original (so the first insert copies);
* ``dense_mb N``        one ``arith.constant dense<[...]>`` literal of N MB (decimal floats);
* ``dense_hex_mb N``    the same as one hex string ``dense<"0x...">``;
* ``small_funcs_mb N``  N MB of small functions (five tensor ops each), called by @main;
* ``tiny_funcs_mb N``   N MB of functions half that size (twice as many per MB): every
                        other one reads and writes a tensor element, the others have no
                        tensors (scalar arithmetic); called by @main;
* ``for_body N``        one ``scf.for`` whose body has N ops on its iteration tensor;
* ``alias_writes N``    N writes into views of one tensor (extract_slice / fill /
                        insert_slice rows): one alias set with N writers and readers.
* ``chain N``           ../shared/oracle/gen_chain.py's chain (linalg add/mul/sub).
"""

from __future__ import annotations

import argparse
import struct
import sys
from collections.abc import Callable
from pathlib import Path


def nested_if(n: int) -> str:
    t = "tensor<4xf32>"
    out = [f"func.func @main(%c: i1, %t: {t}, %f: f32, %i: index) -> {t} {{"]
    for k in range(n):
        out.append(f"%r{k} = scf.if %c -> ({t}) {{")
    out.append(f"%w = tensor.insert %f into %t[%i] : {t}")
    out.append(f"scf.yield %w : {t}")
    for k in reversed(range(n)):
        out.append(f"}} else {{\nscf.yield %t : {t}\n}}")
        if k:
            out.append(f"scf.yield %r{k} : {t}")
    out.append(f"return %r0 : {t}\n}}")
    return "\n".join(out) + "\n"


def insert_chain(n: int) -> str:
    t = "tensor<16xf32>"
    out = [f"func.func @main(%t: {t}, %f: f32, %i: index) -> ({t}, f32) {{"]
    prev = "%t"
    for k in range(1, n + 1):
        out.append(f"  %t{k} = tensor.insert %f into {prev}[%i] : {t}")
        prev = f"%t{k}"
    out.append(f"  %x = tensor.extract %t[%i] : {t}")
    out.append(f"  return {prev}, %x : {t}, f32\n}}")
    return "\n".join(out) + "\n"


def _dense_elems(mb: float) -> int:
    return max(1, int(mb * 1e6) // 14)  # "1.23456e+00, " is 13-14 bytes


def dense_mb(mb: float) -> str:
    k = _dense_elems(mb)
    body = ", ".join(f"{(i % 997) / 7:.5e}" for i in range(k))
    t = f"tensor<{k}xf32>"
    return (f"func.func @main() -> {t} {{\n  %c = arith.constant dense<[{body}]> : {t}\n"
            f"  return %c : {t}\n}}\n")


def dense_hex_mb(mb: float) -> str:
    k = max(1, int(mb * 1e6) // 8)
    data = b"".join(struct.pack("<f", (i % 997) / 7) for i in range(k))
    t = f"tensor<{k}xf32>"
    return (f'func.func @main() -> {t} {{\n  %c = arith.constant dense<"0x{data.hex().upper()}"> '
            f": {t}\n  return %c : {t}\n}}\n")


def small_funcs_mb(mb: float) -> str:
    t = "tensor<8xf32>"
    one = (f"func.func private @fK(%a: {t}, %b: {t}) -> {t} {{\n"
           f"  %e = tensor.empty() : {t}\n"
           f"  %r = linalg.add ins(%a, %b : {t}, {t}) outs(%e : {t}) -> {t}\n"
           "  %c0 = arith.constant 0 : index\n"
           f"  %x = tensor.extract %r[%c0] : {t}\n"
           f"  %s = tensor.insert %x into %r[%c0] : {t}\n"
           f"  return %s : {t}\n}}\n")
    n = max(1, int(mb * 1e6) // len(one.replace("@fK", "@f1000")))
    out = [one.replace("@fK", f"@f{k}") for k in range(n)]
    calls = [f"func.func @main(%a: {t}, %b: {t}) -> {t} {{"]
    prev = "%a"
    for k in range(0, n, max(1, n // 100)):
        calls.append(f"  %v{k} = call @f{k}({prev}, %b) : ({t}, {t}) -> {t}")
        prev = f"%v{k}"
    calls.append(f"  return {prev} : {t}\n}}\n")
    return "".join(out) + "\n".join(calls)


def tiny_funcs_mb(mb: float) -> str:
    t = "tensor<8xf32>"
    tensor_fn = (f"func.func private @fK(%a: {t}, %x: f32, %i: index) -> {t} {{\n"
                 f"  %y = tensor.extract %a[%i] : {t}\n"
                 "  %z = arith.addf %x, %y : f32\n"
                 f"  %s = tensor.insert %z into %a[%i] : {t}\n"
                 f"  return %s : {t}\n}}\n")
    scalar_fn = ("func.func private @fK(%x: f32, %y: f32) -> f32 {\n"
                 "  %z = arith.mulf %x, %y : f32\n"
                 "  %w = arith.addf %z, %x : f32\n"
                 "  %v = arith.subf %w, %y : f32\n"
                 "  return %v : f32\n}\n")
    pair = len(tensor_fn.replace("@fK", "@f10000")) + len(scalar_fn.replace("@fK", "@f10001"))
    n = 2 * max(1, int(mb * 1e6) // pair)
    out = [(tensor_fn if k % 2 == 0 else scalar_fn).replace("@fK", f"@f{k}") for k in range(n)]
    calls = [f"func.func @main(%a: {t}, %x: f32, %i: index) -> ({t}, f32) {{"]
    prev, acc = "%a", "%x"
    step = max(4, n // 100 // 2 * 2)  # about 100 calls; half the functions alone at any size
    for k in range(0, n - 1, step):
        calls.append(f"  %v{k} = call @f{k}({prev}, %x, %i) : ({t}, f32, index) -> {t}")
        calls.append(f"  %s{k} = call @f{k + 1}({acc}, %x) : (f32, f32) -> f32")
        prev, acc = f"%v{k}", f"%s{k}"
    calls.append(f"  return {prev}, {acc} : {t}, f32\n}}\n")
    return "".join(out) + "\n".join(calls)


def for_body(n: int) -> str:
    t = "tensor<64xf32>"
    out = [f"func.func @main(%t: {t}, %lb: index, %ub: index, %st: index, %f: f32) -> {t} {{",
           f"  %r = scf.for %i = %lb to %ub step %st iter_args(%a0 = %t) -> ({t}) {{"]
    prev = "%a0"
    for k in range(1, n + 1):
        if k % 2:
            out.append(f"    %x{k} = tensor.extract {prev}[%i] : {t}")
            out.append(f"    %s{k} = arith.addf %x{k}, %f : f32")
        else:
            out.append(f"    %a{k} = tensor.insert %s{k - 1} into {prev}[%i] : {t}")
            prev = f"%a{k}"
    out.append(f"    scf.yield {prev} : {t}\n  }}")
    out.append(f"  return %r : {t}\n}}")
    return "\n".join(out) + "\n"


def alias_writes(n: int) -> str:
    t = f"tensor<{n}x4xf32>"
    row = "tensor<4xf32>"
    out = [f"func.func @main(%f: f32, %g: f32) -> ({t}, f32) {{",
           f"  %e = tensor.empty() : {t}",
           f"  %t0 = linalg.fill ins(%f : f32) outs(%e : {t}) -> {t}"]
    for k in range(n):
        out.append(f"  %s{k} = tensor.extract_slice %t{k}[{k}, 0] [1, 4] [1, 1] : {t} to {row}")
        out.append(f"  %u{k} = linalg.fill ins(%g : f32) outs(%s{k} : {row}) -> {row}")
        out.append(f"  %t{k + 1} = tensor.insert_slice %u{k} into %t{k}[{k}, 0] [1, 4] [1, 1] "
                   f": {row} into {t}")
    out.append("  %c0 = arith.constant 0 : index")
    out.append(f"  %x = tensor.extract %t{n // 2}[%c0, %c0] : {t}")
    out.append(f"  return %t{n}, %x : {t}, f32\n}}")
    return "\n".join(out) + "\n"


def chain(n: int) -> str:
    import subprocess

    from benchmarks import SHARED

    gen = SHARED / "oracle" / "gen_chain.py"
    text = subprocess.run([sys.executable, str(gen), str(n)], capture_output=True, text=True,
                          check=True).stdout
    return text.replace("(%ptr : tensor<*xf32>)", "(tensor<*xf32>)")


SHAPES: dict[str, Callable[..., str]] = {
    "nested_if": nested_if, "insert_chain": insert_chain, "dense_mb": dense_mb,
    "dense_hex_mb": dense_hex_mb, "small_funcs_mb": small_funcs_mb, "tiny_funcs_mb": tiny_funcs_mb,
    "for_body": for_body,
    "alias_writes": alias_writes, "chain": chain,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.gen_stress",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("shape", choices=sorted(SHAPES))
    ap.add_argument("n", type=float)
    ap.add_argument("-o", "--output", type=Path)
    a = ap.parse_args(argv)
    fn = SHAPES[a.shape]
    text = fn(a.n if a.shape.endswith("_mb") else int(a.n))
    if a.output:
        a.output.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
