// The slice written in place is read again after it was inserted.
func.func @f(%t: tensor<16xf32>, %v: f32, %i: index) -> (tensor<16xf32>, f32) {
  %s = tensor.extract_slice %t[4] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %w into %t[4] [4] [1] : tensor<4xf32> into tensor<16xf32>
  %e = tensor.extract %w[%i] : tensor<4xf32>
  %r2 = tensor.insert %e into %r[%i] : tensor<16xf32>
  return %r2, %e : tensor<16xf32>, f32
}
