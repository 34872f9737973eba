"""Attribute and type aliases where op syntax takes an attribute or a type (issue 10):
``#trait = {...}`` before ``linalg.generic #trait``, ``!t = tensor<..>`` in signatures
and op types, ``#map`` aliases inside attribute dictionaries and layouts.

Checked against mlir-opt-22: it accepts our printout and prints the same module for it
as for the input, and our in-place decisions equal its One-Shot analysis."""

from __future__ import annotations

from pathlib import Path

import oracle
import pytest
from bufferlog.frontend.parser import parse
from bufferlog.frontend.printer import print_module
from test_analysis_parity import oracle as analysis_oracle
from test_analysis_parity import ours as analysis_ours

from bufferlog.core import UserError

PROGRAMS = sorted((Path(__file__).resolve().parent / "aliases").glob("*.mlir"))
needs_oracle = pytest.mark.skipif(not oracle.available(run=False), reason="mlir-opt-22 missing")


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_round_trip_is_the_same_module(path: Path) -> None:
    text = path.read_text()
    mine = print_module(parse(text, path.name))
    assert oracle.normalize(mine) == oracle.normalize(text)


@needs_oracle
@pytest.mark.oracle
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
def test_decisions_equal_mlir_opt(path: Path) -> None:
    text = path.read_text()
    want = analysis_oracle(text)
    assert want, "mlir-opt must analyse the program"
    assert analysis_ours(text, path.name) == want


def test_trait_alias_sets_the_generic_attributes() -> None:
    m = parse((PROGRAMS[0].parent / "trait_reduce.mlir").read_text(), "t.mlir")
    gen = next(op for op in m.walk() if op.name == "linalg.generic")
    assert [str(e) for e in gen.attrs["iterator_types"].elems] == [
        "#linalg.iterator_type<parallel>", "#linalg.iterator_type<reduction>"]
    assert [a.alias for a in gen.attrs["indexing_maps"].elems] == ["rows", "red"]


@pytest.mark.parametrize(("lead", "message"), [
    ("#m", "3:23: error: custom op 'linalg.generic' invalid kind of attribute specified"),
    ("#nope", "3:23: error: undefined attribute alias '#nope'"),
])
def test_trait_alias_errors(lead: str, message: str) -> None:
    text = ("#m = affine_map<(d0) -> (d0)>\n"
            "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            f"  %r = linalg.generic {lead} outs(%a : tensor<4xf32>) {{\n"
            "  ^bb0(%y: f32):\n    linalg.yield %y : f32\n  } -> tensor<4xf32>\n"
            "  return %r : tensor<4xf32>\n}\n")
    with pytest.raises(UserError) as e:
        parse(text, "e.mlir")
    assert str(e.value).startswith(f"e.mlir:{message}")
