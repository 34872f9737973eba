// An external function returns two tensors that may share its argument's buffer: the
// caller writes one result and reads the other, so the call's operand goes out of place.
func.func private @split(tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)

func.func @f(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %r:2 = call @split(%t) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %w = tensor.insert %v into %r#0[%c0] : tensor<4xf32>
  %e = tensor.extract %r#1[%c0] : tensor<4xf32>
  return %w, %e : tensor<4xf32>, f32
}
