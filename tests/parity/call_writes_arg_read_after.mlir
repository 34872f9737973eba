// A callee that writes its argument, the caller reading its own value afterwards: the
// call's operand goes out of place.
func.func private @put(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %c3 = arith.constant 3 : index
  %w = tensor.insert %v into %t[%c3] : tensor<8xf32>
  return %w : tensor<8xf32>
}
func.func @f(%t: tensor<8xf32>, %v: f32, %i: index) -> (tensor<8xf32>, f32) {
  %r = func.call @put(%t, %v) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %e = tensor.extract %t[%i] : tensor<8xf32>
  return %r, %e : tensor<8xf32>, f32
}
