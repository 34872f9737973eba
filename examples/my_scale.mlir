// An op bufferlog does not know, in generic form: examples/myrules/my_ops.dl declares it.
func.func @f(%t: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %0 = "my.scale"(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tensor.extract %t[%c0] : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, f32
}
