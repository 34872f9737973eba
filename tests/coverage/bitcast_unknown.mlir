// tensor.bitcast has no bufferization semantics in mlir-opt 22: an unknown op.
func.func @f(%t: tensor<4xi32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %b = tensor.bitcast %t : tensor<4xi32> to tensor<4xf32>
  %w = tensor.insert %v into %b[%c0] : tensor<4xf32>
  return %w : tensor<4xf32>
}
