// A write into a slice of an argument marked not writable.
func.func @f(%t: tensor<16xf32> {bufferization.writable = false}, %v: f32) -> tensor<16xf32> {
  %s = tensor.extract_slice %t[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %w into %t[0] [4] [1] : tensor<4xf32> into tensor<16xf32>
  return %r : tensor<16xf32>
}
