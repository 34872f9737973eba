// A callee that returns its argument unchanged: its result is equivalent to the
// argument, so the caller's write after the call is a write into the caller's argument.
func.func private @id(%t: tensor<8xf32>) -> tensor<8xf32> {
  return %t : tensor<8xf32>
}
func.func @f(%t: tensor<8xf32>, %v: f32, %i: index) -> (tensor<8xf32>, f32) {
  %r = func.call @id(%t) : (tensor<8xf32>) -> tensor<8xf32>
  %w = tensor.insert %v into %r[%i] : tensor<8xf32>
  %e = tensor.extract %t[%i] : tensor<8xf32>
  return %w, %e : tensor<8xf32>, f32
}
