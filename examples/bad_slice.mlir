// The last element of this slice, 6 + (4 - 1) * 1 = 9, is past the end of the tensor.
func.func @f(%t: tensor<8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[6] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
