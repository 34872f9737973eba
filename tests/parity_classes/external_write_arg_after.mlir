// The caller writes the argument of an external call after it while reading both of the
// call's results afterwards.
func.func private @split(tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)

func.func @f(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %r:2 = call @split(%t) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %w = tensor.insert %v into %t[%c0] : tensor<4xf32>
  %e = tensor.extract %r#1[%c0] : tensor<4xf32>
  return %w, %r#0, %e : tensor<4xf32>, tensor<4xf32>, f32
}
