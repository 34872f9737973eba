// A callee that only reads its argument: the caller's argument stays in place for the
// call, and the write after it too.
func.func private @sum2(%t: tensor<8xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %t[%c0] : tensor<8xf32>
  %b = tensor.extract %t[%i] : tensor<8xf32>
  %s = arith.addf %a, %b : f32
  return %s : f32
}
func.func @f(%t: tensor<8xf32>, %i: index) -> (tensor<8xf32>, f32) {
  %s = func.call @sum2(%t, %i) : (tensor<8xf32>, index) -> f32
  %w = tensor.insert %s into %t[%i] : tensor<8xf32>
  return %w, %s : tensor<8xf32>, f32
}
