"""``memref.realloc`` in custom syntax (issue 10): ``%b = memref.realloc %a[(%n)]
[{attrs}] : memref<..> to memref<..>``. Round trip and verifier errors against
mlir-opt-22; the custom form exports the same facts as the generic form."""

from __future__ import annotations

import re
import subprocess

import oracle
import pytest
from bufferlog.frontend.facts import Facts
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module

from bufferlog.core import UserError

needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")

HEAD = ("func.func @f(%n: index, %s: memref<2xf32, strided<[2]>>, %m: memref<2x2xf32>) "
        "-> memref<{res}> {{\n  %a = memref.alloc() : memref<2xf32>\n")
TAIL = "  return %b : memref<{res}>\n}}\n"
FORMS = {  # name: (result shape, custom form, generic form)
    "static": ("4xf32", "memref.realloc %a : memref<2xf32> to memref<4xf32>",
               '"memref.realloc"(%a) : (memref<2xf32>) -> memref<4xf32>'),
    "dynamic": ("?xf32", "memref.realloc %a(%n) : memref<2xf32> to memref<?xf32>",
                '"memref.realloc"(%a, %n) : (memref<2xf32>, index) -> memref<?xf32>'),
    "aligned": ("?xf32", "memref.realloc %a(%n) {alignment = 64 : i64} : memref<2xf32> to "
                "memref<?xf32>", '"memref.realloc"(%a, %n) <{alignment = 64 : i64}> : '
                "(memref<2xf32>, index) -> memref<?xf32>"),
}


def program(res: str, op: str) -> str:
    return HEAD.format(res=res) + f"  %b = {op}\n" + TAIL.format(res=res)


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("name", FORMS)
def test_round_trip_equals_mlir_opt(name: str) -> None:
    res, custom, generic = FORMS[name]
    mine = print_module(parse(program(res, custom), "r.mlir"))
    assert custom in mine
    assert oracle.normalize(mine) == oracle.normalize(program(res, custom))
    assert oracle.normalize(mine) == oracle.normalize(program(res, generic))


@pytest.mark.parametrize("name", FORMS)
def test_custom_form_has_the_generic_forms_facts(name: str) -> None:
    res, custom, generic = FORMS[name]
    a = Facts(parse(program(res, custom), "r.mlir")).rows
    b = Facts(parse(program(res, generic), "r.mlir")).rows
    a.pop("op_text"), b.pop("op_text")
    assert a == b


BAD = [
    "memref.realloc %a : memref<2xf32> to memref<?xf32>",
    "memref.realloc %a(%n) : memref<2xf32> to memref<4xf32>",
    "memref.realloc %a : memref<2xf32> to memref<4xi32>",
    "memref.realloc %s : memref<2xf32, strided<[2]>> to memref<4xf32>",
    "memref.realloc %m : memref<2x2xf32> to memref<4xf32>",
    "memref.realloc %n : index to memref<4xf32>",
    "memref.realloc %a : memref<2xf32> to memref<4x2xf32>",
]


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("op", BAD)
def test_invalid_rejected_like_mlir_opt(op: str) -> None:
    res = re.search(r"to memref<(.*)>$", op)
    text = program(res.group(1) if res else "4xf32", op)
    want = subprocess.run([oracle.MLIR_OPT, "-"], input=text, capture_output=True, text=True)
    m = re.search(r"<stdin>:(\d+:\d+): error: (.*)", want.stderr)
    assert m, want.stderr
    with pytest.raises(UserError) as e:
        parse(text, "<stdin>")
    assert str(e.value).startswith(f"<stdin>:{m.group(1)}: error: {m.group(2)}")
