// An external function returns two tensors of other shapes than its argument; one is read
// after the call: either may be the argument's buffer, which the callee writes.
func.func private @halves(tensor<?xf32>) -> (tensor<2xf32>, tensor<3xf32>)
func.func @f(%t: tensor<?xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %a, %b = func.call @halves(%t) : (tensor<?xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  %x = tensor.extract %a[%c1] : tensor<2xf32>
  return %x : f32
}
