"""The deallocation program as rules: its entry point and output interface, `--rules`
overlays (op knowledge from facts only), no op names outside ops_memref.dl, linear size,
and no recursion limit in the backend."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import oracle  # noqa: E402
from bufferlog.backend import dealloc as dealloc_mod  # noqa: E402
from bufferlog.backend.dealloc import deallocate  # noqa: E402
from bufferlog.backend.dealloc_rules import DEALLOC_MAIN, load  # noqa: E402
from bufferlog.engine.interface import outputs  # noqa: E402
from bufferlog.engine.program import Program  # noqa: E402
from bufferlog.engine.run import run  # noqa: E402
from bufferlog.frontend.facts import export  # noqa: E402
from bufferlog.frontend.parser import parse  # noqa: E402
from bufferlog.frontend.printer import print_module  # noqa: E402

from bufferlog.core import InternalError, UserError, rules_file  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "rules"
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")

MY_OP = ('func.func @f(%x: f32) {\n  %a = memref.alloc() : memref<2xf32>\n'
         '  "my.fill"(%x, %a) : (f32, memref<2xf32>) -> ()\n  return\n}\n')


# ---------------------------------------------------------------- entry point, interface

def test_entry_point_declares_the_interface() -> None:
    prog = Program.load(rules_file(DEALLOC_MAIN))
    wanted = outputs(DEALLOC_MAIN)
    assert "ownership" in wanted and "free_on_edge" in wanted
    assert all(name in prog.decls for name in wanted)


def test_misspelt_relation_is_an_error() -> None:
    from bufferlog.backend.dealloc_rules import derive

    d = derive(export(parse(MY_OP, "t.mlir")), engine="embedded")
    rows = d.ownership  # typed rows, named fields
    assert rows and all(r.v == r[0] and r.state == r[1] for r in rows)
    with pytest.raises(InternalError, match="owenrship"):
        d.rows("owenrship")


def test_overlay_breaking_the_interface_is_a_located_error(tmp_path: Path) -> None:
    text = (RULES / "ownership.dl").read_text()
    (tmp_path / "ownership.dl").write_text(text.replace(
        ".decl const_bool(v: number, b: number)", ".decl const_bool(v: number, b: number, c: number)").replace(
        "const_bool(v, 1) :-", "const_bool(v, 1, 1) :-").replace("const_bool(v, 0) :-", "const_bool(v, 0, 0) :-"))
    with pytest.raises(UserError, match=r"'const_bool' has 3 column\(s\); the interface of dealloc.dl reads 2") as e:
        load(tmp_path)
    assert "ownership.dl:" in str(e.value)


# ---------------------------------------------------------------- op knowledge in rules only

OP_NAME = re.compile(r'"(?:memref|scf|cf|func|arith|bufferization|linalg|vector|affine)\.[a-z_.]+"')


@pytest.mark.parametrize("name", ["liveness.dl", "ownership.dl", "memref_alias.dl", "plan.dl"])
def test_no_op_names_in_dealloc_rules(name: str) -> None:
    assert not OP_NAME.findall((RULES / name).read_text())


@pytest.mark.parametrize("name", ["dealloc.py", "dealloc_frees.py", "dealloc_rules.py"])
def test_python_dealloc_only_names_ops_it_creates(name: str) -> None:
    """Op names appear only as ``Op("name", ...)``: the backend builds those ops and never
    recognises an op by its name."""
    text = (REPO / "backend" / name).read_text()
    for m in OP_NAME.finditer(text):
        assert text[max(0, m.start() - 3):m.start()] == "Op(", (name, m.group())


def test_user_op_semantics_from_rules(tmp_path: Path) -> None:
    """An op of your own: refused as mlir-opt does (unknown memory effects) until an
    overlay describes it; then freed around it. Works through the CLI's --rules too."""
    with pytest.raises(UserError, match="ops with unknown memory side effects"):
        deallocate(parse(MY_OP, "u.mlir"))
    (tmp_path / "my_ops.dl").write_text('mem_access("my.fill").\n')
    m = parse(MY_OP, "u.mlir")
    deallocate(m, rules_dir=tmp_path)
    assert "memref.dealloc %a" in print_module(m)
    src = tmp_path / "u.mlir"
    src.write_text(MY_OP)
    r = subprocess.run([sys.executable, "-m", "bufferlog.cli", "dealloc", str(src), "--rules",
                        str(tmp_path), "--stats"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "memref.dealloc %a" in r.stdout and "static=1 " in r.stderr


def test_user_op_with_unknown_aliasing_is_unsupported(tmp_path: Path) -> None:
    """A described op whose memref result's aliasing the rules do not give."""
    (tmp_path / "my_ops.dl").write_text('mem_access("my.make").\n')
    text = 'func.func @f() {\n  %a = "my.make"() : () -> memref<2xf32>\n  return\n}\n'
    with pytest.raises(UserError, match=r"unsupported op 'my.make'") as e:
        deallocate(parse(text, "u.mlir"), rules_dir=tmp_path)
    assert "u.mlir:2:8" in str(e.value)


def test_stats_print_reasons(tmp_path: Path) -> None:
    src = REPO / "tests" / "dealloc" / "shapes" / "cf_critical_edge.mlir"
    r = subprocess.run([sys.executable, "-m", "bufferlog.cli", "dealloc", str(src), "--stats"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith("static=") and "conditional=1" in lines[0]
    assert re.match(rf"{re.escape(str(src))}:\d+:\d+: guarded free of %m: its ownership is known "
                    r"only at run time", lines[1])


# ---------------------------------------------------------------- scale

def chain(n: int) -> str:
    """A function with n buffers, each computed from the previous one and a view of it."""
    body = ["func.func @f(%x: f32) -> memref<4xf32> {", "  %a0 = memref.alloc() : memref<4xf32>",
            "  linalg.fill ins(%x : f32) outs(%a0 : memref<4xf32>)"]
    for i in range(1, n + 1):
        body += [f"  %s{i} = memref.subview %a{i - 1}[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>",
                 f"  %a{i} = memref.alloc() : memref<4xf32>",
                 f"  linalg.add ins(%a{i - 1}, %a{i - 1} : memref<4xf32>, memref<4xf32>) outs(%a{i} : memref<4xf32>)",
                 f"  linalg.fill ins(%x : f32) outs(%s{i} : memref<2xf32, strided<[1]>>)"]
    return "\n".join(body + [f"  return %a{n} : memref<4xf32>", "}", ""])


def nest(n: int, t: str = "memref<4xf32>") -> str:
    """n nested scf.if, each yielding the inner result or an outer buffer; the innermost
    one yields a fresh copy. With a tensor type ``t``: the same program on tensors."""
    if t.startswith("tensor"):
        outer, fresh = "%t", [f"%e = tensor.empty() : {t}",
                              f"%x = linalg.copy ins(%t : {t}) outs(%e : {t}) -> {t}"]
        lines = [f"func.func @f(%c: i1, %t: {t}) -> {t} {{"]
    else:
        outer, fresh = "%a", [f"%x = memref.alloc() : {t}", f"memref.copy %a, %x : {t} to {t}"]
        lines = [f"func.func @f(%c: i1, %t: {t}) -> {t} {{", f"  %a = memref.alloc() : {t}",
                 f"  memref.copy %t, %a : {t} to {t}"]
    for i in range(n):
        lines.append("  " * (i + 1) + f"%r{i} = scf.if %c -> ({t}) {{")
    ind = "  " * (n + 1)
    lines += [ind + x for x in fresh] + [f"{ind}scf.yield %x : {t}"]
    for i in reversed(range(n)):
        ind = "  " * (i + 1)
        lines += [f"{ind}}} else {{", f"{ind}  scf.yield {outer} : {t}", f"{ind}}}"]
        if i:
            lines.append(f"{ind}scf.yield %r{i} : {t}")
    return "\n".join(lines + [f"  return %r0 : {t}", "}", ""])


def derived_size(text: str) -> int:
    prog = load()
    f = export(parse(text, "s.mlir"))
    rows = {k: v for k, v in f.rows.items() if k in prog.inputs}
    return sum(len(v) for v in run(prog, rows, engine="embedded", relations="all").relations.values())


@pytest.mark.parametrize("gen", [chain, nest], ids=["chain", "nest"])
def test_derived_relations_grow_linearly(gen) -> None:
    """Every derived relation together: 4x the program, at most ~4x the tuples (the old
    rules materialised `live_after` and range joins: quadratic on both shapes)."""
    small, big = derived_size(gen(50)), derived_size(gen(200))
    assert big / small < 4.4, (small, big)


def in_deep_thread(fn):
    """Run ``fn`` in a thread with a big stack and a high recursion limit: the frontend
    (parser, verifier, fact export) still recurses once per nesting level."""
    out: dict = {}

    def target() -> None:
        try:
            out["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller
            out["error"] = e

    old = sys.getrecursionlimit()
    threading.stack_size(512 * 1024 * 1024)
    sys.setrecursionlimit(100_000)
    try:
        t = threading.Thread(target=target)
        t.start()
        t.join()
    finally:
        sys.setrecursionlimit(old)
        threading.stack_size(0)
    if "error" in out:
        raise out["error"]
    return out["value"]


def test_backend_has_no_recursion_limit(monkeypatch) -> None:
    """Deallocation of 1,000 nested scf.if runs with a Python recursion limit far below the
    nesting depth once the module is parsed and its facts exported."""
    m = in_deep_thread(lambda: parse(nest(1000), "n.mlir"))
    real_export = dealloc_mod.export
    monkeypatch.setattr(dealloc_mod, "export", lambda mod: in_deep_thread(lambda: real_export(mod)))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        st = deallocate(m)
    finally:
        sys.setrecursionlimit(old)
    assert st.runtime == 0 and st.clones == 0


@needs_oracle
@pytest.mark.oracle
def test_bufferize_and_dealloc_of_1000_nested_ifs() -> None:
    """The tensor form through the whole pipeline; mlir-opt-22 verifies the output."""
    from bufferlog.backend.bufferize import bufferize

    out = in_deep_thread(lambda: print_module(bufferize(parse(nest(1000, "tensor<4xf32>"), "n.mlir"))))
    assert out.count("scf.if") >= 1000 and "tensor" not in out
    oracle.mlir_opt(out)
