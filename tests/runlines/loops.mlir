// allow-return-allocs-from-loops is off unless named (mlir-opt's default): a loop that
// yields a fresh tensor is rejected, at the yield, with mlir-opt's message.
// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries" -split-input-file -verify-diagnostics
// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries test-analysis-only allow-return-allocs-from-loops" -split-input-file

func.func @fresh_each_iteration(%t: tensor<4xf32>, %n: index, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    // expected-error@below {{Yield operand #0 is not equivalent to the corresponding iter bbArg}}
    scf.yield %f : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @in_place_each_iteration(%t: tensor<4xf32>, %n: index, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> tensor<4xf32> {
    %w = tensor.insert %v into %a[%i] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @while_swaps(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r:2 = scf.while (%x = %a, %y = %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    // expected-error@below {{Condition arg #0 is not equivalent to the corresponding iter bbArg}}
    scf.condition(%c) %y, %x : tensor<4xf32>, tensor<4xf32>
  } do {
  ^bb0(%p: tensor<4xf32>, %q: tensor<4xf32>):
    scf.yield %p, %q : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0 : tensor<4xf32>
}
