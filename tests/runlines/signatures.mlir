// Function signatures as mlir-opt's pipelines make them: a result that is an argument's
// buffer stays (returned as a clone after deallocation); -drop-equivalent-buffer-results
// drops it from private functions only.
// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -buffer-deallocation-pipeline
// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -drop-equivalent-buffer-results -buffer-deallocation-pipeline
// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries" -drop-equivalent-buffer-results
// RUN: mlir-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=fully-dynamic-layout-map"
// RUN: mlir-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries=1 function-boundary-type-conversion=identity-layout-map}, drop-equivalent-buffer-results, buffer-deallocation-pipeline)"
// RUN: mlir-opt %s -one-shot-bufferize

func.func @scale(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r = tensor.insert %v into %t[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func private @fill(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, f32) {
  %f = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %c1 = arith.constant 1 : index
  %x = tensor.extract %f[%c1] : tensor<4xf32>
  return %f, %x : tensor<4xf32>, f32
}

func.func @use(%v: f32) -> (tensor<4xf32>, f32) {
  %e = tensor.empty() : tensor<4xf32>
  %a, %x = call @fill(%e, %v) : (tensor<4xf32>, f32) -> (tensor<4xf32>, f32)
  %b = call @scale(%a, %x) : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %b, %x : tensor<4xf32>, f32
}
