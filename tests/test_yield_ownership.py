"""What a loop's run passes on to the next run (rules/yield_ownership.dl): the copies the
loop-yield stage makes, on programs of our own whose right answer is clear by hand.

A run passes on without a copy its slot's own buffer, a buffer it allocated, an inner
loop's result that starts from either, and an scf.if whose branches each yield one of
those; a buffer from outside the loop, or one already passed on by an earlier operand, is
copied."""

from __future__ import annotations

from pathlib import Path

import pytest

import bufferlog

try:
    from tests import oracle
except ImportError:  # tests/ on sys.path
    import oracle

HERE = Path(__file__).parent / "yield_ownership"

#: program -> copies made in the loop's regions (not nested deeper), by hand
COPIES = {
    "fresh": 0,  # the body's own linalg.add result
    "foreign": 1,  # %u lives outside the loop and is returned too
    "twice": 1,  # one fresh buffer yielded to two slots: the second gets a copy
    "inner": 0,  # an inner loop that starts from the slot's own argument
    "branches": 0,  # an scf.if of a fresh buffer or the slot's own argument
    "while": 0,  # the condition passes its argument on; the after region a fresh buffer
}

LOOPS = ("scf.for", "scf.while")


def _outputs(name: str):
    return bufferlog.bufferize((HERE / f"{name}.mlir").read_text(), dealloc=False)


def _outer_loop(module):
    return next(op for op in module.walk() if op.name in LOOPS)


@pytest.mark.parametrize("name", sorted(COPIES))
def test_copies_in_the_loop(name):
    loop = _outer_loop(_outputs(name).module)
    copies = [op for r in loop.regions for b in r.blocks for op in b.ops if op.name == "memref.copy"]
    assert len(copies) == COPIES[name]


def test_a_loop_passing_its_argument_through_yields_that_argument():
    """The inner loop always returns the outer slot's own buffer: the outer yield passes
    that argument itself (`yield_mine`), as deallocation expects."""
    loop = _outer_loop(_outputs("inner").module)
    body = loop.regions[0].blocks[0]
    assert body.ops[-1].operands[0] is body.args[1]


def test_the_copied_operand_is_the_later_one():
    """Of two operands passing one buffer on, the first keeps it, the second is a copy."""
    loop = _outer_loop(_outputs("twice").module)
    body = loop.regions[0].blocks[0]
    first, second = body.ops[-1].operands
    copy = next(op for op in body.ops if op.name == "memref.copy")
    assert copy.operands == [first, second]


@pytest.mark.skipif(not oracle.available(), reason="mlir-opt-22 missing")
@pytest.mark.parametrize("name", sorted(COPIES))
def test_mlir_opt_accepts_the_output(name):
    oracle.mlir_opt(bufferlog.bufferize((HERE / f"{name}.mlir").read_text()).text)
