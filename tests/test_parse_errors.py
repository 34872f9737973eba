"""Bad input -> ``file:line:col: error: ...`` on stderr, exit 1, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bufferlog.cli import main

REPO = Path(__file__).resolve().parent.parent
EXE = REPO / ".venv" / "bin" / "bufferlog"

CASES = [
    # (name, text, expected "line:col", message fragment)
    ("syntax_error", "func.func @f(%a: i32) {\n  %0 = arith.addi %a %a : i32\n}\n",
     "2:22", "unexpected '%a'"),
    ("undefined_value", "func.func @f() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n",
     "2:19", "use of undefined value '%x'"),
    ("unknown_custom_op", "func.func @f() {\n  foo.bar %x : i32\n}\n",
     "2:3", "unknown operation 'foo.bar' in custom syntax"),
    ("unsupported_type", "func.func @f(%a: tensor<4xfoo>) {\n  return\n}\n",
     "1:27", "unsupported type 'foo'"),
    ("dynamic_vector", "func.func private @f(vector<?xf32>)\n", "1:29", "unsupported type"),
    ("undefined_block", "func.func @f() {\n  cf.br ^bb9\n}\n",
     "2:9", "undefined block '^bb9'"),
    ("result_count", '%0, %1 = "foo.x"() : () -> i32\n',
     "1:1", "operation defines 1 results but was provided 2 to bind"),
    ("redefinition", "func.func @f(%a: i32) {\n  %a = arith.addi %a, %a : i32\n  return\n}\n",
     "2:3", "redefinition of SSA value '%a'"),
    ("unexpected_eof", "func.func @f(", "1:14", "unexpected end of input"),
    ("undefined_alias", '"foo.x"() {a = #nope} : () -> ()\n', "1:16", "undefined attribute alias"),
    ("bad_character", "%x = arith.constant 1 : i32 $\n", "1:29", "unexpected character '$'"),
    ("bad_result_index", '%0:2 = "foo.x"() : () -> (i32, i32)\n"foo.y"(%0#2) : (i32) -> ()\n',
     "2:9", "no result #2"),
    ("value_not_visible_in_isolated",
     "func.func @f(%a: i32) {\n  return\n}\nfunc.func @g() {\n  return %a : i32\n}\n",
     "5:10", "use of undefined value '%a'"),
    ("unknown_predicate", "func.func @f(%a: i32) {\n  %0 = arith.cmpi foo, %a, %a : i32\n  return\n}\n",
     "2:19", "unknown arith.cmpi predicate 'foo'"),
    # layouts of another rank than the memref (mlir-opt-22's messages and positions)
    ("strides_rank", "func.func private @f(memref<1x4x2xf32, strided<[8, 1], offset: 1>>)\n",
     "1:22", "expected the number of strides to match the rank"),
    ("affine_map_rank", "func.func private @f(memref<3x2xf32, affine_map<(d0) -> (d0)>>)\n",
     "1:22", "memref layout mismatch between rank and affine map: 2 != 1"),
]


@pytest.mark.parametrize("name,text,pos,frag", CASES, ids=[c[0] for c in CASES])
def test_error_in_process(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                          text: str, pos: str, frag: str) -> None:
    f = tmp_path / f"{name}.mlir"
    f.write_text(text)
    assert main(["print", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{f}:{pos}: error: "), err
    assert frag in err
    assert "Traceback" not in err


@pytest.mark.skipif(not EXE.exists(), reason="no .venv/bin/bufferlog")
@pytest.mark.parametrize("name,text,pos,frag", CASES[:5], ids=[c[0] for c in CASES[:5]])
def test_error_subprocess_stdin(name: str, text: str, pos: str, frag: str) -> None:
    r = subprocess.run([str(EXE), "print", "-"], input=text, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 1
    assert r.stderr.startswith(f"<stdin>:{pos}: error: "), r.stderr
    assert frag in r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout == ""


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "/nonexistent/x.mlir"]) == 1
    assert "error: no such file" in capsys.readouterr().err


def test_print_to_file_and_generic(tmp_path: Path) -> None:
    src = tmp_path / "a.mlir"
    src.write_text("func.func @f(%a: i32) -> i32 {\n  return %a : i32\n}\n")
    out = tmp_path / "o.mlir"
    assert main(["print", str(src), "-o", str(out), "--generic"]) == 0
    assert '"func.return"' in out.read_text()
    r = subprocess.run([sys.executable, "-m", "bufferlog.cli", "print", str(src)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 0 and "return %a : i32" in r.stdout
