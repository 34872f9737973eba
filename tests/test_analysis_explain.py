"""`bufferlog explain`: the conflict triple of an out-of-place operand, with locations."""

from __future__ import annotations

from bufferlog.engine.oneshot import analyze_module
from bufferlog.frontend.parser import parse

from bufferlog.commands.explain import explain

SRC = """func.func @f(%t: tensor<8xf32>, %v: f32, %i: index) -> (tensor<8xf32>, f32) {
  %a = tensor.insert %v into %t[%i] : tensor<8xf32>
  %x = tensor.extract %t[%i] : tensor<8xf32>
  return %a, %x : tensor<8xf32>, f32
}
"""


def run(target):
    facts, an, dec = analyze_module(parse(SRC, "x.mlir"), engine="embedded")
    return explain(facts, an, dec, target)["ops"][0]


def test_out_of_place_triple():
    e = run("2")
    op = e["operands"][0]
    assert e["op"] == "tensor.insert" and op["operand"] == 1 and not op["inplace"]
    assert op["definition"]["value"] == "bbArg 0"
    assert op["conflicting_write"]["loc"] == "x.mlir:2:3"
    assert op["read"]["loc"] == "x.mlir:3:3" and op["read"]["op"] == "tensor.extract"


def test_in_place_by_name():
    e = run("%x")
    assert e["op"] == "tensor.extract" and e["operands"][0]["inplace"]
