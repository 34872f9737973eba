// In-place decisions as mlir-opt makes them, for the same pasted option strings.
// Function boundaries off (mlir-opt's default): the argument is read-only, the fill
// into it is copied; on: it is written in place.
// RUN: mlir-opt %s -one-shot-bufferize="test-analysis-only print-conflicts" -split-input-file | FileCheck %s
// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries test-analysis-only print-conflicts" -split-input-file | FileCheck %s --check-prefix=BOUNDARIES
// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries test-analysis-only analysis-heuristic=top-down" -split-input-file
// RUN: mlir-opt %s --one-shot-bufferize="bufferize-function-boundaries=1 test-analysis-only=true print-conflicts" --split-input-file

func.func @fill_arg(%cst: f32, %out: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.fill ins(%cst : f32) outs(%out : tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @read_after_write(%t: tensor<4xf32>, %v: f32, %i: index, %j: index) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %w = tensor.insert %v into %f[%i] : tensor<4xf32>
  %r = tensor.extract %f[%j] : tensor<4xf32>
  return %w, %r : tensor<4xf32>, f32
}

// -----

func.func @two_fills(%v: f32, %u: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = linalg.fill ins(%u : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func private @callee(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r = tensor.insert %v into %t[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @caller(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = call @callee(%t, %v) : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %r, %t : tensor<4xf32>, tensor<4xf32>
}
