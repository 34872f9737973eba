"""The structural verifier (``frontend/verify.py``) against the oracle.

* Hand-written invalid snippets, one or more per check: we reject each at the expected
  ``line:col`` with the expected message, and mlir-opt-22 rejects it too, at the same
  place and with the same substance (a fragment of its message).
* Valid edge cases (unreachable blocks, graph regions, implicit terminators, unknown ops,
  back edges, nested symbol tables): we and mlir-opt-22 both accept them.
* A seeded mutation run over the shared corpus: every mutant is judged by both tools; a
  mutant mlir-opt rejects but we accept must match the documented allow-list
  (``MISSED_OK``), and we never reject a mutant mlir-opt accepts (``REJECTED_OK`` is
  empty).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import literal_mutations
import pytest
from bufferlog.frontend.parser import MLIRSyntaxError, parse
from bufferlog.frontend.verify import _dominators
from conftest import CORPUS_FILES

from bufferlog.cli import main
from bufferlog.core import UserError

_ERR = re.compile(r"<stdin>:(\d+):(\d+): error: (.*)")


def _oracle(mlir_opt: str, text: str) -> tuple[str, str] | None:
    """None when mlir-opt-22 accepts ``text``, else ("line:col", message) of its first
    error (unregistered ops allowed, as for our generic form)."""
    r = subprocess.run([mlir_opt, "--allow-unregistered-dialect", "-"], input=text,
                       capture_output=True, text=True, timeout=60)
    if r.returncode == 0:
        return None
    m = _ERR.search(r.stderr)
    return (f"{m.group(1)}:{m.group(2)}", m.group(3)) if m else ("?", r.stderr)


def _ours(text: str, name: str = "t.mlir") -> tuple[str, str] | None:
    try:
        parse(text, name)
    except MLIRSyntaxError as e:
        return f"{e.loc.line}:{e.loc.col}", e.message
    return None


# -- invalid snippets ------------------------------------------------------------------
# (id, text, our message fragment, mlir-opt's message fragment[, "line"]): the position
# of our error equals mlir-opt's first error ("line": only the line, where mlir-opt
# reports a parse-time type error at the operand and we report the op).

INVALID = [
    # 1. dominance
    ("dom_same_block_swap", """func.func @f(%a: i32) -> i32 {
  %1 = arith.addi %0, %a : i32
  %0 = arith.addi %a, %a : i32
  return %1 : i32
}
""", "operand #0 does not dominate this use", "operand #0 does not dominate this use"),
    ("dom_self_use", """func.func @f(%a: i32) {
  %0 = arith.addi %0, %a : i32
  return
}
""", "operand #0 does not dominate this use", "does not dominate this use"),
    ("dom_own_region", """func.func @f(%c: i1) -> f32 {
  %r = scf.if %c -> (f32) {
    scf.yield %r : f32
  } else {
    scf.yield %r : f32
  }
  return %r : f32
}
""", "operand #0 does not dominate this use", "does not dominate this use"),
    ("dom_later_in_parent", """func.func @f(%c: i1) {
  scf.if %c {
    "foo.use"(%x) : (f32) -> ()
  }
  %x = "foo.def"() : () -> f32
  return
}
""", "operand #0 does not dominate this use", "does not dominate this use"),
    ("dom_sibling_region", """func.func @f(%c: i1) {
  scf.if %c {
    "foo.use"(%x) : (f32) -> ()
  } else {
    %x = "foo.def"() : () -> f32
  }
  return
}
""", "operand #0 does not dominate this use", "does not dominate this use"),
    ("dom_cfg_diamond", """func.func @f(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %a, %a : i32
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  return %x : i32
}
""", "operand #0 does not dominate this use", "does not dominate this use"),
    ("dom_cfg_block_arg", """func.func @f(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%y: i32):
  cf.br ^bb2
^bb2:
  return %y : i32
}
""", "operand #0 does not dominate this use", "does not dominate this use"),
    ("dom_cfg_nested_use", """func.func @f(%c: i1, %n: index) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = "foo.def"() : () -> f32
  cf.br ^bb2
^bb2:
  scf.for %i = %n to %n step %n {
    "foo.use"(%x) : (f32) -> ()
  }
  return
}
""", "operand #0 does not dominate this use", "does not dominate this use"),
    ("dom_from_unreachable", """func.func @f(%a: i32) -> i32 {
  cf.br ^bb2
^bb1:
  %x = arith.addi %a, %a : i32
  cf.br ^bb2
^bb2:
  return %x : i32
}
""", "operand #0 does not dominate this use", "does not dominate this use"),
    ("dom_second_operand", """func.func @f(%a: i32) -> i32 {
  %1 = arith.addi %a, %0 : i32
  %0 = arith.addi %a, %a : i32
  return %1 : i32
}
""", "operand #1 does not dominate this use", "operand #1 does not dominate this use"),
    # 2. terminators
    ("yield_not_last", """func.func @f(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
    %z = arith.addf %x, %x : f32
  } else {
    scf.yield %x : f32
  }
  return %r : f32
}
""", "'scf.yield' op must be the last operation in the parent block",
     "'scf.yield' op must be the last operation in the parent block"),
    ("return_not_last", """func.func @f(%x: f32) {
  return
  "foo.after"() : () -> ()
}
""", "'func.return' op must be the last operation in the parent block",
     "'func.return' op must be the last operation in the parent block"),
    ("linalg_yield_not_last", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
    %1 = arith.addf %in, %out : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "'linalg.yield' op must be the last operation in the parent block",
     "'linalg.yield' op must be the last operation in the parent block"),
    ("func_no_terminator", """func.func @f(%x: f32) {
  %z = arith.addf %x, %x : f32
}
""", "block with no terminator, has %z = arith.addf", "block with no terminator, has"),
    ("cf_block_no_terminator", """func.func @f(%x: f32) {
  cf.br ^bb1
^bb1:
  %z = arith.addf %x, %x : f32
}
""", "block with no terminator", "block with no terminator"),
    ("assert_is_not_a_terminator", """func.func @f(%c: i1) {
  cf.assert %c, "boom"
}
""", "block with no terminator, has cf.assert", "block with no terminator"),
    ("generic_no_yield", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.addf %in, %out : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "block with no terminator", "block with no terminator"),
    ("generic_empty_body", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "'linalg.generic' op expects a non-empty block", "'linalg.generic' op expects a non-empty block"),
    ("generic_two_blocks", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    cf.br ^bb1
  ^bb1:
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "'linalg.generic' op expects region #0 to have 0 or 1 blocks",
     "'linalg.generic' op expects region #0 to have 0 or 1 blocks"),
    ("empty_cfg_block", """func.func @f(%x: f32) {
  cf.br ^bb1
^bb1:
}
""", "empty block: expect at least a terminator", "empty block: expect at least a terminator"),
    ("branch_not_last", """func.func @f(%x: f32) {
  cf.br ^bb1
  %y = arith.addf %x, %x : f32
^bb1:
  return
}
""", "operation with block successors must terminate its parent block",
     "operation with block successors must terminate its parent block"),
    ("unknown_op_multiblock_needs_terminator", """func.func @f(%n: index) {
  "foo.op"() ({
    "foo.br"()[^bb1] : () -> ()
  ^bb1:
    %y = arith.addi %n, %n : index
  }) : () -> ()
  return
}
""", "block with no terminator", "block with no terminator"),
    ("while_before_not_condition", """func.func @f(%x: f32) -> f32 {
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.yield %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return %r : f32
}
""", "expects the 'before' region to terminate with 'scf.condition'",
     "expects the 'before' region to terminate with 'scf.condition'"),
    ("generate_no_yield", """func.func @f(%n: index) -> tensor<?xf32> {
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f32
  } : tensor<?xf32>
  return %0 : tensor<?xf32>
}
""", "'tensor.yield' op requires a single operand", "'tensor.yield' op requires a single operand"),
    # 3. parents / top level
    ("bare_return_top_level", """return
""", "custom op 'return' is unknown", "custom op 'return' is unknown"),
    ("func_return_top_level", """func.func @f() {
  return
}
func.return
""", "'func.return' op expects parent op 'func.func'", "'func.return' op expects parent op 'func.func'"),
    ("bare_return_in_scf", """func.func @f(%c: i1) {
  scf.if %c {
    return
  }
  return
}
""", "custom op 'return' is unknown", "not found for custom op 'return'"),
    ("func_return_in_scf", """func.func @f(%c: i1) {
  scf.execute_region {
    func.return
  }
  return
}
""", "'func.return' op expects parent op 'func.func'", "'func.return' op expects parent op 'func.func'"),
    ("scf_yield_top_level", """scf.yield
""", "'scf.yield' op expects parent op to be one of", "'scf.yield' op expects parent op to be one of"),
    ("scf_yield_in_func", """func.func @f() {
  scf.yield
}
""", "'scf.yield' op expects parent op to be one of", "'scf.yield' op expects parent op to be one of"),
    ("linalg_yield_in_func", """func.func @f(%x: f32) {
  linalg.yield %x : f32
}
""", "'linalg.yield' op expected parent op with LinalgOp interface",
     "'linalg.yield' op expected parent op with LinalgOp interface"),
    ("linalg_index_in_func", """func.func @f() {
  %i = linalg.index 0 : index
  return
}
""", "'linalg.index' op expected parent op with LinalgOp interface",
     "'linalg.index' op expected parent op with LinalgOp interface"),
    ("tensor_yield_in_func", """func.func @f(%n: index) {
  tensor.yield %n : index
}
""", "'tensor.yield' op expects parent op to be one of 'tensor.generate, tensor.pad'",
     "'tensor.yield' op expects parent op to be one of 'tensor.generate, tensor.pad'"),
    ("in_parallel_outside_forall", """func.func @f() {
  scf.forall.in_parallel {
  }
  return
}
""", "'scf.forall.in_parallel' op expects parent op 'scf.forall'",
     "'scf.forall.in_parallel' op expects parent op 'scf.forall'"),
    ("in_parallel_content", """func.func @f(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %0 = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
      %y = arith.addf %x, %x : f32
    }
  }
  return %0 : tensor<4xf32>
}
""", "expected only ParallelCombiningOpInterface ops", "expected only ParallelCombiningOpInterface ops"),
    ("bare_call_in_scf", """func.func private @g()
func.func @f(%c: i1) {
  scf.if %c {
    call @g() : () -> ()
  }
  return
}
""", "custom op 'call' is unknown", "not found for custom op 'call'"),
    # 4. types of forward references / redefinitions
    ("forward_ref_type", """func.func @f(%x: f32) {
  "foo.use"(%y) : (i32) -> ()
  %y = arith.addf %x, %x : f32
  return
}
""", "definition of SSA value '%y#0' has type 'f32'", "definition of SSA value '%y#0' has type 'f32'"),
    ("forward_ref_block_arg_type", """#m = affine_map<() -> ()>
func.func @f(%a: tensor<f32>, %b: tensor<i1>) -> tensor<i1> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = []} ins(%a : tensor<f32>) outs(%b : tensor<i1>) {
  ^bb0(%in: f32, %out: i1):
    linalg.yield %out : i1
  } -> tensor<i1>
  return %0 : tensor<i1>
}
func.func @g(%c: i1) {
  cf.br ^bb1(%c : i1)
^bb1(%d: i1):
  cf.cond_br %d, ^bb2, ^bb3
^bb2:
  "foo.use"(%late) : (f32) -> ()
  return
^bb3:
  %late = "foo.def"() : () -> i64
  return
}
""", "definition of SSA value '%late#0' has type 'i64'", "definition of SSA value '%late#0' has type 'i64'"),
    ("use_type_vs_definition", """func.func @f(%x: f32) {
  "foo.use"(%x) : (i32) -> ()
  return
}
""", "use of value '%x' expects different type than prior uses: 'i32' vs 'f32'",
     "use of value '%x' expects different type than prior uses: 'i32' vs 'f32'"),
    ("forward_uses_disagree", """func.func @f(%x: f32) {
  "foo.use"(%y) : (i32) -> ()
  "foo.use"(%y) : (f32) -> ()
  %y = arith.addf %x, %x : f32
  return
}
""", "use of value '%y' expects different type than prior uses: 'f32' vs 'i32'",
     "use of value '%y' expects different type than prior uses: 'f32' vs 'i32'"),
    ("redefinition", """func.func @f(%x: f32) {
  %y = arith.addf %x, %x : f32
  %y = arith.mulf %x, %x : f32
  return
}
""", "redefinition of SSA value '%y'", "redefinition of SSA value '%y'"),
    ("redefinition_across_blocks", """func.func @f(%x: f32) {
  %y = arith.addf %x, %x : f32
  cf.br ^bb1
^bb1:
  %y = arith.mulf %x, %x : f32
  return
}
""", "redefinition of SSA value '%y'", "redefinition of SSA value '%y'"),
    ("alias_redefinition", """#m = affine_map<(d0) -> (d0)>
#m = affine_map<(d0) -> (d0)>
""", "redefinition of attribute alias id 'm'", "redefinition of attribute alias id 'm'"),
    ("math_operand_type", """func.func @f(%x: f32, %t: tensor<2xf32>) -> f32 {
  %0 = math.exp %t : f32
  return %0 : f32
}
""", "'math.exp' op requires the same type for all operands and results",
     "expects different type than prior uses", "line"),
    # 5. region signatures
    ("generic_block_arg_count", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "'linalg.generic' op expected as many non-induction variable region arguments as the number of input/output operands",
     "expected as many non-induction variable region arguments as the number of input/output operands"),
    ("generic_block_arg_type", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f64, %out: f32):
    linalg.yield %out : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "expected type of bb argument #0 ('f64') to match element or self type of the corresponding operand ('f32')",
     "expected type of bb argument #0 ('f64') to match element or self type of the corresponding operand ('f32')"),
    ("generic_yield_count", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in, %out : f32, f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)",
     "expected number of yield values (2) to match the number of inits / outs operands of the enclosing LinalgOp (1)"),
    ("generic_yield_type", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: memref<4xf32>, %b: memref<4xf64>) {
  linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf64>) {
  ^bb0(%in: f32, %out: f64):
    linalg.yield %in : f32
  }
  return
}
""", "type of yield operand 1 ('f32') doesn't match the element type of the enclosing linalg.generic op ('f64')",
     "type of yield operand 1 ('f32') doesn't match the element type of the enclosing linalg.generic op ('f64')"),
    ("map_arity", """func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.map ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>)
    (%x: f32) {
      linalg.yield %x : f32
    }
  return %0 : tensor<4xf32>
}
""", "'linalg.map' op expects number of operands to match the arity of mapper, but got: 2 and 1",
     "'linalg.map' op expects number of operands to match the arity of mapper, but got: 2 and 1"),
    ("reduce_block_args", """func.func @f(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = linalg.reduce ins(%a : tensor<4xf32>) outs(%b : tensor<f32>) dimensions = [0]
    (%x: f32) {
      linalg.yield %x : f32
    }
  return %0 : tensor<f32>
}
""", "'linalg.reduce' op mismatching number of operands and block arguments",
     "'linalg.reduce' op mismatching number of operands and block arguments"),
    ("for_yield_count", """func.func @f(%n: index, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
    scf.yield %a, %a : f32, f32
  }
  return %r : f32
}
""", "'scf.for' op different number of region iter_args and yielded values: 1 != 2",
     "'scf.for' op different number of region iter_args and yielded values: 1 != 2"),
    ("for_yield_type", """func.func @f(%n: index, %x: f32, %y: f64) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
    scf.yield %y : f64
  }
  return %r : f32
}
""", "'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'f64'",
     "'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'f64'"),
    ("if_results_without_else", """func.func @f(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  }
  return %r : f32
}
""", "'scf.if' op must have an else block if defining values",
     "'scf.if' op must have an else block if defining values"),
    ("if_implicit_yield_with_results", """func.func @f(%c: i1, %x: f32) -> f32 {
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
  }
  return %r : f32
}
""", "region branch point has 0 operands, but region successor needs 1 inputs",
     "region branch point has 0 operands, but region successor needs 1 inputs"),
    ("if_yield_type", """func.func @f(%c: i1, %x: f32, %y: f64) -> f32 {
  %r = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    scf.yield %y : f64
  }
  return %r : f32
}
""", "successor operand type #0 'f64' should match successor input type #0 'f32'",
     "successor operand type #0 'f64' should match successor input type #0 'f32'"),
    ("while_condition_count", """func.func @f(%x: f32, %c: i1) -> f32 {
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a, %a : f32, f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b : f32
  }
  return %r : f32
}
""", "from Operation scf.condition to parent: region branch point has 2 operands, but region successor needs 1 inputs",
     "from Operation scf.condition to parent: region branch point has 2 operands, but region successor needs 1 inputs"),
    ("while_yield_count", """func.func @f(%x: f32, %c: i1) -> f32 {
  %r = scf.while (%a = %x) : (f32) -> f32 {
    scf.condition(%c) %a : f32
  } do {
  ^bb0(%b: f32):
    scf.yield %b, %b : f32, f32
  }
  return %r : f32
}
""", "from Operation scf.yield to Region #0: region branch point has 2 operands",
     "from Operation scf.yield to Region #0: region branch point has 2 operands"),
    ("execute_region_yield", """func.func @f(%c: i1, %x: f32) -> f32 {
  %r = scf.execute_region -> f32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %x : f32
  ^bb2:
    scf.yield
  }
  return %r : f32
}
""", "region branch point has 0 operands, but region successor needs 1 inputs",
     "region branch point has 0 operands, but region successor needs 1 inputs"),
    ("index_switch_yield", """func.func @f(%i: index, %x: f32) -> f32 {
  %r = scf.index_switch %i -> f32
  case 1 {
    scf.yield %x : f32
  }
  default {
    scf.yield
  }
  return %r : f32
}
""", "expected each region to return 1 values, but default region returns 0",
     "expected each region to return 1 values, but default region returns 0"),
    ("generate_yield_type", """func.func @f(%n: index) -> tensor<?xf32> {
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f64
    tensor.yield %c : f64
  } : tensor<?xf32>
  return %0 : tensor<?xf32>
}
""", "body must be terminated with a `yield` operation of the tensor element type",
     "body must be terminated with a `yield` operation of the tensor element type"),
    ("generate_block_args", """func.func @f(%n: index) -> tensor<?x3xf32> {
  %0 = tensor.generate %n {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
""", "must have one body argument per input dimension", "must have one body argument per input dimension"),
    ("pad_block_args", """func.func @f(%t: tensor<2xf32>) -> tensor<4xf32> {
  %c = arith.constant 1.0 : f32
  %0 = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}
""", "expected the block to have 1 arguments", "expected the block to have 1 arguments"),
    ("return_count", """func.func @f(%x: f32) -> f32 {
  return
}
""", "'func.return' op has 0 operands, but enclosing function (@f) returns 1",
     "'func.return' op has 0 operands, but enclosing function (@f) returns 1"),
    ("return_type", """func.func @f(%x: f32, %y: i32) -> f32 {
  return %y : i32
}
""", "type of return operand 0 ('i32') doesn't match function result type ('f32') in function @f",
     "type of return operand 0 ('i32') doesn't match function result type ('f32') in function @f"),
    ("branch_operand_count", """func.func @f(%x: f32) {
  cf.br ^bb1
^bb1(%a: f32):
  return
}
""", "branch has 0 operands for successor #0, but target block has 1",
     "branch has 0 operands for successor #0, but target block has 1"),
    ("branch_operand_type", """func.func @f(%x: f32, %y: i32) {
  cf.br ^bb1(%y : i32)
^bb1(%a: f32):
  return
}
""", "type mismatch for bb argument #0 of successor #0", "type mismatch for bb argument #0 of successor #0"),
    ("entry_block_predecessor", """func.func @f() {
  scf.execute_region {
  ^bb0:
    cf.br ^bb0
  }
  return
}
""", "entry block of region may not have predecessors", "entry block of region may not have predecessors"),
    ("generic_for_without_block", """func.func @f(%n: index) {
  "scf.for"(%n, %n, %n) ({
  }) : (index, index, index) -> ()
  return
}
""", "'scf.for' op region #0 ('region') failed to verify constraint: region with 1 blocks",
     "'scf.for' op region #0 ('region') failed to verify constraint: region with 1 blocks"),
    ("generic_while_one_region", """func.func @f(%c: i1) {
  "scf.while"() ({
    "scf.condition"(%c) : (i1) -> ()
  }) : () -> ()
  return
}
""", "'scf.while' op expected 2 regions", "'scf.while' op expected 2 regions"),
    ("generic_for_without_yield", """func.func @f(%n: index) {
  "scf.for"(%n, %n, %n) ({
  ^bb0(%i: index):
    %z = arith.addi %i, %i : index
  }) : (index, index, index) -> ()
  return
}
""", "block with no terminator", "block with no terminator"),
    # symbols and a few exact op rules the fuzz run met
    ("symbol_redefinition", """func.func private @g()
func.func private @g()
""", "redefinition of symbol named 'g'", "redefinition of symbol named 'g'"),
    ("call_unknown_function", """func.func @f() {
  call @g() : () -> ()
  return
}
""", "'func.call' op 'g' does not reference a valid function",
     "'func.call' op 'g' does not reference a valid function"),
    ("call_operand_count", """func.func private @g(f32)
func.func @f() {
  call @g() : () -> ()
  return
}
""", "'func.call' op incorrect number of operands for callee",
     "'func.call' op incorrect number of operands for callee"),
    ("public_declaration", """func.func @g()
""", "'func.func' op symbol declaration cannot have public visibility",
     "'func.func' op symbol declaration cannot have public visibility"),
    ("extract_index_count", """func.func @f(%t: tensor<2x2xf32>, %i: index) -> f32 {
  %0 = tensor.extract %t[%i] : tensor<2x2xf32>
  return %0 : f32
}
""", "'tensor.extract' op incorrect number of indices for extract_element",
     "'tensor.extract' op incorrect number of indices for extract_element"),
    ("empty_dynamic_sizes", """func.func @f(%i: index) -> tensor<?x?xf32> {
  %0 = tensor.empty(%i) : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
""", "'tensor.empty' op incorrect number of dynamic sizes, has 1, expected 2",
     "'tensor.empty' op incorrect number of dynamic sizes, has 1, expected 2"),
    ("slice_ranks", """func.func @f(%t: tensor<4xf32>) -> tensor<2xf32> {
  %0 = tensor.extract_slice %t[0] [2] [] : tensor<4xf32> to tensor<2xf32>
  return %0 : tensor<2xf32>
}
""", "expected mixed sizes rank to match mixed strides rank (1 vs 0)",
     "expected mixed sizes rank to match mixed strides rank (1 vs 0)"),
]


VALID = [
    ("unreachable_block_any_order", """func.func @f(%x: f32) {
  return
^bb1:
  %z = arith.addf %y, %y : f32
  %y = arith.addf %x, %x : f32
  return
}
"""),
    ("cfg_dominating_block", """func.func @f(%c: i1, %a: i32) -> i32 {
  %x = arith.addi %a, %a : i32
  cf.cond_br %c, ^bb1, ^bb2(%x : i32)
^bb1:
  %y = arith.addi %x, %a : i32
  cf.br ^bb2(%y : i32)
^bb2(%z: i32):
  %w = arith.addi %z, %x : i32
  return %w : i32
}
"""),
    ("cfg_forward_reference_in_loop", """func.func @f(%c: i1, %a: i32) -> i32 {
  cf.br ^bb2(%a : i32)
^bb1:
  %n = arith.addi %v, %a : i32
  cf.br ^bb2(%n : i32)
^bb2(%v: i32):
  cf.cond_br %c, ^bb1, ^bb3
^bb3:
  return %v : i32
}
"""),
    ("graph_region_module", """"foo.op"() ({
  "foo.use"(%y) : (f32) -> ()
  "foo.end"() : () -> ()
}) : () -> ()
%y = "foo.def"() : () -> f32
%x = arith.addf %y, %y : f32
"""),
    ("implicit_terminators", """func.func @f(%c: i1, %n: index, %t: tensor<4xf32>) -> tensor<4xf32> {
  scf.if %c {
    "foo.x"() : () -> ()
  }
  scf.for %i = %n to %n step %n {
  }
  %0 = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
  }
  return %0 : tensor<4xf32>
}
"""),
    ("unknown_ops_need_no_terminator", """func.func @f(%n: index) {
  "foo.op"() ({
    %y = arith.addi %n, %n : index
  }) : () -> ()
  "foo.op"() ({
  ^bb0:
  }) : () -> ()
  scf.for %i = %n to %n step %n {
    "foo.maybe_terminator"() : () -> ()
  }
  return
}
"""),
    ("nested_module_and_symbols", """module {
  module @inner {
    func.func private @g(f32) -> f32
    func.func @f(%x: f32) -> f32 {
      %0 = call @g(%x) : (f32) -> f32
      return %0 : f32
    }
  }
  func.func private @g()
}
"""),
    ("shadowing_after_region", """func.func @f(%c: i1) -> f32 {
  %r = scf.if %c -> (f32) {
    %y = "foo.def"() : () -> f32
    scf.yield %y : f32
  } else {
    %y = "foo.def"() : () -> f32
    scf.yield %y : f32
  }
  %y = "foo.def"() : () -> f32
  return %y : f32
}
"""),
    ("execute_region_multi_block", """func.func @f(%c: i1, %x: f32) -> f32 {
  %r = scf.execute_region -> f32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %x : f32
  ^bb2:
    %y = arith.addf %x, %x : f32
    scf.yield %y : f32
  }
  return %r : f32
}
"""),
    ("linalg_bodies", """#m = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %s: tensor<f32>, %m: memref<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#m, #m], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %1 = arith.addf %in, %out : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  %2 = linalg.map { math.absf } ins(%0 : tensor<4xf32>) outs(%b : tensor<4xf32>)
  %3 = linalg.reduce { arith.addf } ins(%2 : tensor<4xf32>) outs(%s : tensor<f32>) dimensions = [0]
  %4 = linalg.map ins(%a, %0 : tensor<4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>)
    (%x: f32, %y: f32, %z: f32) {
      %5 = arith.mulf %x, %y : f32
      linalg.yield %5 : f32
    }
  return %4 : tensor<4xf32>
}
"""),
]


@pytest.mark.parametrize("case", INVALID, ids=[c[0] for c in INVALID])
def test_invalid_rejected_like_mlir(mlir_opt: str, case: tuple[str, ...]) -> None:
    name, text, ours_frag, theirs_frag, *how = case
    ours = _ours(text)
    assert ours is not None, f"{name}: accepted"
    assert ours_frag in ours[1], ours
    theirs = _oracle(mlir_opt, text)
    assert theirs is not None, f"{name}: mlir-opt-22 accepts it"
    assert theirs_frag in theirs[1], theirs
    if how == ["line"]:
        assert ours[0].split(":")[0] == theirs[0].split(":")[0], (ours, theirs)
    else:
        assert ours[0] == theirs[0], (ours, theirs)


@pytest.mark.parametrize("case", VALID, ids=[c[0] for c in VALID])
def test_valid_accepted_like_mlir(mlir_opt: str, case: tuple[str, str]) -> None:
    name, text = case
    assert _ours(text) is None, _ours(text)
    assert _oracle(mlir_opt, text) is None


def test_error_through_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "dom.mlir"
    f.write_text(INVALID[0][1])
    assert main(["print", str(f)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{f}:2:8: error: operand #0 does not dominate this use"), err
    assert "Traceback" not in err


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_verifies(path: Path) -> None:
    parse(path.read_text(), str(path))


@pytest.mark.oracle
def test_corpus_generic_form_verifies(mlir_opt: str) -> None:
    """mlir-opt's generic form spells every implicit terminator and region out."""
    for p in CORPUS_FILES:
        generic = subprocess.run([mlir_opt, "--mlir-print-op-generic", str(p)],
                                 capture_output=True, text=True, timeout=60, check=True).stdout
        parse(generic, f"{p.name} (generic form)")


def test_dominators() -> None:
    # 0 -> 1 -> 3, 0 -> 2 -> 3, 3 -> 1 (back edge), 4 unreachable -> 3
    children, reachable = _dominators(5, [[1, 2], [3], [3], [1], [3]])
    assert reachable == [True, True, True, True, False]
    assert sorted(children[0]) == [1, 2, 3] and children[1] == children[2] == []


def test_long_cfg_chain_and_deep_nesting() -> None:
    """Iterative dominator walk: thousands of blocks, no recursion limit, linear time."""
    n = 1500
    body = ["func.func @f(%a: i32) -> i32 {", "  cf.br ^bb1(%a : i32)"]
    for i in range(1, n):
        body += [f"^bb{i}(%v{i}: i32):", f"  %w{i} = arith.addi %v{i}, %a : i32",
                 f"  cf.br ^bb{i + 1}(%w{i} : i32)"]
    body += [f"^bb{n}(%v{n}: i32):", f"  %r = arith.addi %v{n}, %w1 : i32", "  return %r : i32", "}"]
    text = "\n".join(body) + "\n"
    t0 = time.perf_counter()
    parse(text)
    assert time.perf_counter() - t0 < 30
    bad = text.replace(f"%r = arith.addi %v{n}, %w1", f"%r = arith.addi %v{n}, %w{n - 1}")
    parse(bad)  # %w{n-1} is in the block right before: it dominates
    bad = text.replace("%w1 = arith.addi %v1, %a", "%w1 = arith.addi %v1, %w2")
    with pytest.raises(MLIRSyntaxError, match="operand #1 does not dominate"):
        parse(bad)
    depth = 60
    nest = ["func.func @g(%c: i1) {"] + ["  scf.if %c {"] * depth
    nest += ['    "foo.use"(%late) : (f32) -> ()'] + ["  }"] * depth
    nest += ['  %late = "foo.def"() : () -> f32', "  return", "}"]
    with pytest.raises(MLIRSyntaxError, match="does not dominate") as e:
        parse("\n".join(nest) + "\n")
    assert e.value.loc.line == depth + 2


# -- seeded mutation run ---------------------------------------------------------------

#: mutants mlir-opt-22 rejects and we accept, allowed for a documented reason:
#: (name, regex over mlir-opt's first message, regex over the source line it points at,
#: reason)
MISSED_OK = [
    ("opaque dialect attribute", r"expected valid keyword or string|expected attribute value",
     r"#\w+\.\w+<", "dialect attributes (#arith.fastmath<..>, #linalg.iterator_type<..>) "
     "are kept as opaque text"),
    ("float literal spelling", r"unexpected decimal integer literal for a floating point "
     r"value|expected attribute value", r":\s*(f|bf)\d+|dense<",
     "the attribute builder accepts an integer literal (or a sign-only one) for a float "
     "type"),
    ("transform script body", r".", r"transform\.",
     "the body of a transform.named_sequence is kept as text: transform ops drive MLIR's "
     "transform interpreter and have no bufferization semantics, and are not verified"),
]
#: mutants mlir-opt-22 accepts and we reject, allowed for a documented reason: none
REJECTED_OK: list[tuple[str, str, str]] = []

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|%[\w#$.:-]+|\^[\w$.-]+|@[\w$.-]+|[\w.$]+|->|\S')
MUTANTS_PER_FILE = 16  # per corpus file, and ...
#: the affine and transform-script programs, mutated too (8 mutants each)
PROGRAM_FILES = [p for d in ("affine", "transform")
                 for p in sorted((Path(__file__).parent / d).glob("*.mlir"))]
PROGRAM_MUTANTS_PER_FILE = 8
GENERIC_MUTANTS_PER_FILE = 6  # ... per file as printed by mlir-opt --mlir-print-op-generic
SEED = int(os.environ.get("BUFFERLOG_MUTATION_SEED", "20240611"))  # override to explore


def _mutants(text: str, rng: random.Random, n: int) -> list[tuple[str, str]]:
    """``n`` single mutations of ``text``: delete a line, swap two nearby lines, duplicate
    a line, drop a token, or replace an SSA value / block / symbol name by another name of
    the same kind from the file. Only the IR text is mutated, never the opaque
    ``{-# dialect_resources #-}`` section (kept verbatim by design)."""
    cut = text.find("{-#")
    cut = text.rfind("\n", 0, cut) + 1 if cut >= 0 else len(text)
    body, tail = text[:cut], text[cut:]
    lines = body.split("\n")
    idx = [i for i, ln in enumerate(lines) if ln.strip() and not ln.strip().startswith("//")]
    names = {p: sorted({t.group() for t in _TOKEN.finditer(body) if t.group()[0] == p})
             for p in "%^@"}
    out = []
    while len(out) < n:
        kind = rng.choice(["delete", "swap", "duplicate", "drop-token", "rename"])
        new = list(lines)
        i = rng.choice(idx)
        if kind == "delete":
            del new[i]
            desc = f"delete line {i + 1}"
        elif kind == "swap":
            j = min(len(new) - 2, i + rng.randint(1, 4))
            new[i], new[j] = new[j], new[i]
            desc = f"swap lines {i + 1} and {j + 1}"
        elif kind == "duplicate":
            new.insert(i, new[i])
            desc = f"duplicate line {i + 1}"
        else:
            toks = [m for m in _TOKEN.finditer(new[i])
                    if kind == "drop-token" or m.group()[0] in "%^@"]
            if not toks:
                continue
            m = rng.choice(toks)
            rep = "" if kind == "drop-token" else rng.choice(names[m.group()[0]])
            new[i] = new[i][:m.start()] + rep + new[i][m.end():]
            desc = f"{kind} {m.group()!r}->{rep!r} on line {i + 1}"
        out.append((desc, "\n".join(new) + tail))
    return out


def _allowed(table: list[tuple[str, ...]], msg: str, line: str) -> str | None:
    for entry in table:
        name, msg_re, line_re = entry[0], entry[1], entry[2]
        if re.search(msg_re, msg) and re.search(line_re, line):
            return name
    return None


def _judge(mlir_opt: str, mutants: list[tuple[str, str, str]], missed_ok: list[tuple[str, ...]],
           rejected_ok: list[tuple[str, ...]]) -> tuple[dict[str, int], list[str]]:
    """Each mutant ``(file, description, text)`` judged by mlir-opt-22 and by us: the
    counts of agreement and allowed disagreement, and the disagreements not allowed."""
    with ThreadPoolExecutor(max(2, os.cpu_count() or 2)) as pool:
        theirs = list(pool.map(lambda m: _oracle(mlir_opt, m[2]), mutants))
    counts = {"both reject": 0, "both accept": 0, "missed (allowed)": 0,
              "rejected (allowed)": 0}
    bad = []
    for (fname, desc, text), th in zip(mutants, theirs, strict=True):
        try:
            ours = _ours(text, fname)
        except UserError as e:  # any other located user error still counts as rejection
            ours = ("?", e.message)
        except Exception as e:  # noqa: BLE001 - a crash is a finding of its own
            bad.append(f"{fname}: {desc}: CRASH {type(e).__name__}: {e}")
            continue
        if ours is not None and th is not None:
            counts["both reject"] += 1
        elif ours is None and th is None:
            counts["both accept"] += 1
        elif ours is None:
            assert th is not None
            line_no = int(th[0].split(":")[0]) if th[0][0].isdigit() else 0
            lines = text.splitlines()
            src = lines[line_no - 1] if 0 < line_no <= len(lines) else ""
            if _allowed(missed_ok, th[1], src):
                counts["missed (allowed)"] += 1
            else:
                bad.append(f"{fname}: {desc}: mlir-opt rejects ({th[0]}: {th[1]}), we accept")
        else:
            if _allowed(rejected_ok, ours[1], ""):
                counts["rejected (allowed)"] += 1
            else:
                bad.append(f"{fname}: {desc}: we reject ({ours[0]}: {ours[1]}), mlir-opt "
                           "accepts")
    return counts, bad


@pytest.mark.oracle
def test_mutants_agree_with_mlir_opt(mlir_opt: str) -> None:
    if not CORPUS_FILES:
        pytest.skip("shared corpus not found")
    rng = random.Random(SEED)
    mutants = [(p.name, d, t) for p in CORPUS_FILES
               for d, t in _mutants(p.read_text(), rng, MUTANTS_PER_FILE)]
    mutants += [(p.name, d, t) for p in PROGRAM_FILES
                for d, t in _mutants(p.read_text(), rng, PROGRAM_MUTANTS_PER_FILE)]
    for p in CORPUS_FILES:
        generic = subprocess.run([mlir_opt, "--mlir-print-op-generic", str(p)],
                                 capture_output=True, text=True, timeout=60, check=True).stdout
        mutants += [(f"{p.name} (generic form)", d, t)
                    for d, t in _mutants(generic, rng, GENERIC_MUTANTS_PER_FILE)]
    counts, bad = _judge(mlir_opt, mutants, MISSED_OK, REJECTED_OK)
    total = len(mutants)
    agree = counts["both reject"] + counts["both accept"]
    print(f"\n{total} mutants: {counts}; agreement {agree}/{total} = {agree / total:.1%}",
          file=sys.stderr)
    assert not bad, "\n".join(bad)
    assert counts["both reject"] > total // 2  # the mutations do break things


# -- literal-level mutation groups ------------------------------------------------------

#: literal mutants mlir-opt-22 rejects and we accept, allowed for a documented reason
LITERAL_MISSED_OK = [e for e in MISSED_OK if e[0] == "transform script body"]
#: literal mutants mlir-opt-22 accepts and we reject: none
LITERAL_REJECTED_OK: list[tuple[str, str, str]] = []
LITERAL_MUTANTS_PER_GROUP = int(os.environ.get("BUFFERLOG_LITERAL_MUTANTS", "30"))
#: files whose literals are mutated: the corpus, tests/literals/ (dense literals of several
#: types, escapes, integer limits, every dimension-naming op) and the test programs
LITERAL_SOURCES = [*CORPUS_FILES, *(p for d in ("literals", "coverage", "parity", "bufferize", "vector",
                                               "affine", "transform")
                                     for p in sorted((Path(__file__).parent / d).glob("*.mlir")))]


@pytest.mark.oracle
def test_literal_mutants_agree_with_mlir_opt(mlir_opt: str) -> None:
    """Mutations inside literals and attributes (tests/literal_mutations.py: dense
    literals and their brackets, integer ranges, strings, brackets, linalg permutations /
    dimensions / reassociations and attributes, ranks of slice types, concat dimensions,
    slice offsets / sizes / strides, tensor.pad, expand_shape, the resources section,
    affine maps and affine ops), judged in both directions per group; a disagreement must
    be on ``LITERAL_MISSED_OK`` / ``LITERAL_REJECTED_OK``. tests/mutation_sweep.py runs
    more of them."""
    rng = random.Random(SEED)
    report, bad = {}, []
    for group, mutate in literal_mutations.GROUPS.items():
        found = [(p.name, d, t) for p in LITERAL_SOURCES for d, t in mutate(p.read_text(), rng)]
        rng.shuffle(found)
        counts, wrong = _judge(mlir_opt, found[:LITERAL_MUTANTS_PER_GROUP], LITERAL_MISSED_OK,
                               LITERAL_REJECTED_OK)
        report[group] = counts
        bad += [f"[{group}] {b}" for b in wrong]
        assert counts["both reject"] > 0, f"group {group} never breaks anything"
    for group, counts in report.items():
        print(f"{group}: {counts}", file=sys.stderr)
    assert not bad, "\n".join(bad)
