"""What a deallocated memref program costs when it runs: bytes allocated and copied,
run-time deallocation checks executed, measured under mlir-runner-22.

Deallocation is judged by these figures, not by op counts: a clone in a loop allocates
and copies its whole buffer on every iteration, where a check costs a pointer comparison.

``measure(text)`` runs a memref program (ours, or mlir-opt's pipeline output) and returns
:class:`Cost`. The program is instrumented first, in two passes over mlir-opt's generic
printing, parsed and printed back with bufferlog's frontend:

1. on the program as deallocated (``bufferization.clone`` and ``bufferization.dealloc``
   still present; a ``memref.realloc`` expanded into alloc + copy + free as both tools'
   lowerings do; ``shape.assuming`` regions inlined by ``--canonicalize``, which the
   lowering needs): a call ``costcount_copy(bytes)`` before every ``memref.copy``,
   ``linalg.copy`` and ``bufferization.clone`` (the bytes of its source, from its shape at
   run time), and ``costcount_check()`` before every ``scf.if`` that decides whether to
   clone (a returned buffer its function may not own);
2. after ``--convert-bufferization-to-memref`` (which lowers clones to alloc + copy and
   ``bufferization.dealloc`` to pointer comparisons, inline or in a ``dealloc_helper``
   function): ``costcount_check()`` before every ``scf.if`` that guards a
   ``memref.dealloc`` and before every pointer comparison (an ``arith.cmpi`` of a value
   from ``memref.extract_aligned_pointer_as_index``, or any ``arith.cmpi`` on index values
   in a ``dealloc_helper`` function), and ``costcount_bookkeeping(bytes)`` before every
   allocation of the helper's pointer and flag arrays (an alloc handed, possibly through
   casts, to a ``dealloc_helper`` call, as ``backend/quality.py`` counts them).

The run links tests/costcount.c (built into build/libcostcount.so on demand): a counting
allocator (every allocation recorded, a free poisons and quarantines its block, so leaks,
double and foreign frees are counted) that also sums allocated bytes, plus the three
counters the calls above feed.

``with_trip_count(text, n)`` makes every outermost ``scf.for`` of a program run ``n``
iterations (its upper bound becomes ``lb + n * step``): the same program at 1 and at 100
iterations shows what a deallocation strategy pays per iteration.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "costcount.c"
LIBRARY = oracle.REPO / "build" / "libcostcount.so"

#: lowering after the instrumentation: tests/oracle.py's list without the passes already run
LOWERING = [p if p != "--finalize-memref-to-llvm" else "--finalize-memref-to-llvm=use-generic-functions"
            for p in oracle.LOWERING_PASSES if p != "--convert-bufferization-to-memref"]

_ELT_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "index": 8,
              "f16": 2, "bf16": 2, "f32": 4, "f64": 8}
_REPORT = re.compile(r"COSTCOUNT (.*)")


class CostError(RuntimeError):
    """A program could not be instrumented, lowered or run."""


@dataclass(frozen=True)
class Cost:
    """Figures of one run. ``alloc_bytes`` includes ``bookkeeping_bytes``; ``data_bytes``
    is the rest (what the program and its clones allocated)."""

    allocs: int
    alloc_bytes: int
    frees: int
    live: int
    double_frees: int
    bad_frees: int
    peak_bytes: int
    copies: int
    copy_bytes: int
    checks: int
    bookkeeping_bytes: int
    stdout: str
    returncode: int

    @property
    def data_bytes(self) -> int:
        return self.alloc_bytes - self.bookkeeping_bytes

    @property
    def clean(self) -> bool:
        """Exit 0, nothing live, no double or foreign free."""
        return (self.returncode, self.live, self.double_frees, self.bad_frees) == (0, 0, 0, 0)

    @property
    def values(self) -> str:
        """What the program printed, addresses masked."""
        return oracle.mask_addresses(self.stdout)


def library() -> Path:
    """build/libcostcount.so, (re)built from tests/costcount.c when missing or older."""
    if LIBRARY.exists() and LIBRARY.stat().st_mtime >= SOURCE.stat().st_mtime:
        return LIBRARY
    cc = os.environ.get("CC") or "cc"
    LIBRARY.parent.mkdir(parents=True, exist_ok=True)
    tmp = LIBRARY.with_name(f".{LIBRARY.name}.{os.getpid()}")
    p = subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(tmp), str(SOURCE)],
                       capture_output=True, text=True)
    if p.returncode:
        raise CostError(f"building {LIBRARY.name} failed:\n{p.stderr}")
    os.replace(tmp, LIBRARY)
    return LIBRARY


# ------------------------------------------------------------------------------ IR edits

def _ir():
    from bufferlog.frontend import types as T
    from bufferlog.frontend.attrs import IntegerAttr, SymbolRefAttr
    from bufferlog.frontend.ir import Op
    from bufferlog.frontend.parser import parse
    from bufferlog.frontend.printer import print_module

    return T, IntegerAttr, SymbolRefAttr, Op, parse, print_module


_DECLS = """
func.func private @costcount_copy(i64)
func.func private @costcount_check()
func.func private @costcount_bookkeeping(i64)
"""


class _Edit:
    """Insertions before ops of one parsed module, and the counter declarations."""

    def __init__(self, text: str):
        T, self.IntegerAttr, self.SymbolRefAttr, self.Op, parse, self.print = _ir()
        self.T = T
        self.m = parse(text, "<instrumented>")
        self.i64 = T.IntegerType(64)
        self.index = T.IndexType()
        self.used: set[str] = set()

    def before(self, anchor, op):
        anchor.parent.insert_before(anchor, op)
        return op

    def const(self, anchor, value: int, type_):
        return self.before(anchor, self.Op("arith.constant", [], [type_],
                                           {"value": self.IntegerAttr(value, type_)})).result

    def call(self, anchor, callee: str, args=()):
        self.used.add(callee)
        self.before(anchor, self.Op("func.call", list(args), [],
                                    {"callee": self.SymbolRefAttr(callee)}))

    def bytes_of(self, anchor, v):
        """An i64 value: the bytes of memref ``v`` (its dynamic sizes read at run time)."""
        t = v.type
        if not isinstance(t, self.T.MemRefType):
            raise CostError(f"cannot size a copy of {t} (unranked or not a memref)")
        elt = _ELT_BYTES.get(str(t.elem))
        if elt is None:
            raise CostError(f"unknown element size of {t}")
        static = elt
        dyn = []
        for i, d in enumerate(t.shape):
            if d is None or d < 0:
                dyn.append(i)
            else:
                static *= d
        acc = self.const(anchor, static, self.i64)
        for i in dyn:
            ci = self.const(anchor, i, self.index)
            dim = self.before(anchor, self.Op("memref.dim", [v, ci], [self.index])).result
            d64 = self.before(anchor, self.Op("arith.index_cast", [dim], [self.i64])).result
            acc = self.before(anchor, self.Op("arith.muli", [acc, d64], [self.i64])).result
        return acc

    def text(self) -> str:
        _, _, _, _, parse, _ = _ir()
        body = self.m.body
        have = {str(f.attrs.get("sym_name")).strip('"') for f in body.ops}
        for f in parse(_DECLS, "<decls>").body.ops:
            sym = str(f.attrs.get("sym_name")).strip('"')
            if sym in self.used and sym not in have:
                f.parent = None
                body.append(f)
        return self.print(self.m, generic=True)


def _ops(m):
    from bufferlog.backend.ir_edit import walk_ops

    return list(walk_ops(m))


def _function(op) -> str:
    while op.parent_op is not None and op.name != "func.func":
        op = op.parent_op
    return str(op.attrs.get("sym_name", "")).strip('"')


def _direct(op, names: tuple[str, ...]) -> bool:
    return any(o.name in names for r in op.regions for b in r.blocks for o in b.ops)


def instrument_copies(generic_text: str) -> str:
    """Pass 1 (see the module doc)."""
    e = _Edit(generic_text)
    for op in _ops(e.m):
        if op.name in ("memref.copy", "bufferization.clone") or (
                op.name == "linalg.copy" and op.operands
                and isinstance(op.operands[0].type, e.T.MemRefType)):
            e.call(op, "costcount_copy", [e.bytes_of(op, op.operands[0])])
        elif op.name == "scf.if" and _direct(op, ("bufferization.clone",)):
            e.call(op, "costcount_check")
    return e.text()


def _through_casts(v):
    while getattr(v, "op", None) is not None and v.op.name == "memref.cast":
        v = v.op.operands[0]
    return v


def instrument_checks(generic_text: str) -> str:
    """Pass 2 (see the module doc)."""
    e = _Edit(generic_text)
    ops = _ops(e.m)
    bookkeeping = {id(_through_casts(v)) for op in ops if op.name == "func.call"
                   and str(op.attrs.get("callee", "")).lstrip("@").startswith("dealloc_helper")
                   for v in op.operands}
    for op in ops:
        if op.name == "scf.if" and _direct(op, ("memref.dealloc",)):
            e.call(op, "costcount_check")
        elif op.name == "arith.cmpi" and (
                any(getattr(v, "op", None) is not None
                    and v.op.name == "memref.extract_aligned_pointer_as_index" for v in op.operands)
                or (_function(op).startswith("dealloc_helper")
                    and all(isinstance(v.type, e.T.IndexType) for v in op.operands))):
            e.call(op, "costcount_check")
        elif op.name == "memref.alloc" and op.results and id(op.results[0]) in bookkeeping:
            e.call(op, "costcount_bookkeeping", [e.bytes_of(op, op.results[0]) if not any(
                d is None or d < 0 for d in op.results[0].type.shape) else e.const(
                op, _static_bytes(op.results[0].type), e.i64)])
    return e.text()


def _static_bytes(t) -> int:
    n = _ELT_BYTES[str(t.elem)]
    for d in t.shape:
        n *= d
    return n


def with_trip_count(text: str, n: int) -> str:
    """``text`` with every outermost ``scf.for`` running ``n`` iterations."""
    T, IntegerAttr, _, Op, parse, print_module = _ir()
    m = parse(text, "<trip-count>")
    index = T.IndexType()
    for op in _ops(m):
        if op.name != "scf.for":
            continue
        p, nested = op.parent_op, False
        while p is not None:
            nested |= p.name == "scf.for"
            p = p.parent_op
        if nested:
            continue
        lb, _ub, step = op.operands[:3]
        blk = op.parent
        c = Op("arith.constant", [], [index], {"value": IntegerAttr(n, index)})
        mul = Op("arith.muli", [c.result, step], [index])
        add = Op("arith.addi", [lb, mul.result], [index])
        for x in (c, mul, add):
            blk.insert_before(op, x)
        op.set_operand(1, add.result)
    return print_module(m)


# ------------------------------------------------------------------------------ running

def lower(text: str) -> str:
    """The instrumented program, lowered to the LLVM dialect."""
    pre = ["--expand-realloc"] if "memref.realloc" in text else []
    if "shape.assuming" in text:  # no lowering of its own: inlined under a constant witness
        pre.append("--canonicalize")
    try:
        g = oracle.mlir_opt(text, *pre, "--mlir-print-op-generic")
        g = instrument_copies(g)
        g = oracle.mlir_opt(g, "--convert-bufferization-to-memref", "--mlir-print-op-generic")
        g = instrument_checks(g)
        return oracle.mlir_opt(g, *LOWERING)
    except oracle.OracleError as err:
        raise CostError(str(err)) from err


def measure(text: str, entry: str = "main", timeout: float = 120.0) -> Cost:
    """Run memref program ``text`` (``@entry() -> ()``) with the counters (module doc)."""
    llvm = lower(text)
    libs = [*map(str, oracle.RUNNER_LIBS), str(library())]
    argv = [oracle.MLIR_RUNNER, "-e", entry, "-entry-point-result=void", "-shared-libs=" + ",".join(libs)]
    try:
        p = subprocess.run(argv, input=llvm, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as err:
        raise CostError(f"mlir-runner timed out after {timeout} s") from err
    m = _REPORT.search(p.stderr)
    if m is None:
        raise CostError(f"no cost report (exit {p.returncode}):\n{p.stderr[-2000:]}")
    f = {k: int(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
    if f.pop("overflow"):
        raise CostError("more allocations than the counter records")
    return Cost(**f, stdout=p.stdout, returncode=p.returncode)


CACHE = oracle.CACHE


def mlir_opt_dealloc(text: str) -> str | None:
    """mlir-opt-22's ``--buffer-deallocation-pipeline`` output for memref program ``text``,
    or None where it refuses the input (cached under build/oracle-cache)."""
    key = hashlib.sha256(f"{oracle.MLIR_OPT}\ndealloc-pipeline\n{text}".encode()).hexdigest()
    f = CACHE / f"dealloc-{key}.mlir"
    if f.exists():
        out = f.read_text()
        return None if out == "<refused>\n" else out
    try:
        out = oracle.mlir_opt(text, "--buffer-deallocation-pipeline")
    except oracle.OracleError:
        out = None
    CACHE.mkdir(parents=True, exist_ok=True)
    f.write_text(out if out is not None else "<refused>\n")
    return out
