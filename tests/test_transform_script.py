"""transform.named_sequence (frontend/dialects/transform.py): a transform script next to
the payload is read, printed back and carried through analysis, bufferization and
deallocation unchanged; its own checks agree with mlir-opt-22's.

The script's body is kept as text (transform ops drive MLIR's transform interpreter and
have no bufferization semantics); what is inside it is not verified -- mutation tests
allow-list mutants there (tests/test_verify.py)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import oracle
import pytest
from bufferlog.frontend.parser import MLIRSyntaxError, parse
from bufferlog.frontend.printer import print_module
from test_analysis_parity import oracle as analysis_oracle
from test_analysis_parity import ours as analysis_ours

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "transform" / "script_and_payload.mlir"
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")
_ERR = re.compile(r"<stdin>:(\d+):(\d+): error: (.*)")


def _mlir_opt(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([oracle.MLIR_OPT, *args, "-"], input=text, capture_output=True,
                          text=True, timeout=60)


def _script(text: str) -> str:
    """The named sequences of a module as mlir-opt prints them."""
    out = _mlir_opt(text).stdout
    return out[out.index("transform.named_sequence"):]


@needs_oracle
@pytest.mark.oracle
def test_round_trip() -> None:
    text = SCRIPT.read_text()
    want = _mlir_opt(text)
    assert want.returncode == 0, want.stderr
    generic = _mlir_opt(text, "--mlir-print-op-generic").stdout
    for src in (text, want.stdout, generic):
        for gen in (False, True):
            got = _mlir_opt(print_module(parse(src, SCRIPT.name), generic=gen))
            assert got.returncode == 0, got.stderr
            assert got.stdout == want.stdout


@needs_oracle
@pytest.mark.oracle
def test_payload_analysed_and_bufferized_script_kept() -> None:
    from bufferlog.backend.bufferize import bufferize
    from bufferlog.backend.dealloc import deallocate

    text = SCRIPT.read_text()
    assert analysis_ours(text, SCRIPT.name) == analysis_oracle(text)
    module = bufferize(parse(text, SCRIPT.name))
    out = print_module(module)
    assert _mlir_opt(out).returncode == 0
    assert _script(out) == _script(text)
    memref_ir = parse(out, "bufferized.mlir")
    deallocate(memref_ir)
    assert _script(print_module(memref_ir)) == _script(text)


INVALID = [
    ("no_attribute", """module {
  transform.named_sequence @m(%a: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
""", "expects the parent symbol table to have the 'transform.with_named_sequence' "
     "attribute"),
    ("nested_in_func", """module attributes {transform.with_named_sequence} {
  func.func @f() {
    transform.named_sequence @m(%a: !transform.any_op {transform.readonly}) {
      transform.yield
    }
    return
  }
}
""", "'transform.named_sequence' op symbol's parent must have the SymbolTable trait"),
    ("empty_body", """module attributes {transform.with_named_sequence} {
  transform.named_sequence @m(%a: !transform.any_op {transform.readonly}) {
    // nothing
  }
}
""", "expected a non-empty body block"),
    ("readonly_and_consumed", """module attributes {transform.with_named_sequence} {
  transform.named_sequence @m(%a: !transform.any_op {transform.readonly, transform.consumed}) {
    transform.yield
  }
}
""", "argument #0 cannot be both readonly and consumed"),
    ("duplicate_symbol", """module attributes {transform.with_named_sequence} {
  transform.named_sequence @m(%a: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  func.func @m() {
    return
  }
}
""", "redefinition of symbol named 'm'"),
]


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("case", INVALID, ids=[c[0] for c in INVALID])
def test_invalid_rejected_like_mlir_opt(case: tuple[str, str, str]) -> None:
    name, text, fragment = case
    with pytest.raises(MLIRSyntaxError) as e:
        parse(text, "t.mlir")
    r = _mlir_opt(text)
    m = _ERR.search(r.stderr)
    assert r.returncode != 0 and m, name
    assert fragment in e.value.message and fragment in m.group(3)
    assert (e.value.loc.line, e.value.loc.col) == (int(m.group(1)), int(m.group(2)))
