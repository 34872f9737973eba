// extract_slice / compute / insert_slice at the same offsets, sizes and strides: the
// slice is the destination's own subset, everything in place.
func.func @f(%t: tensor<10x20xf32>, %v: f32, %i: index, %j: index) -> tensor<10x20xf32> {
  %s = tensor.extract_slice %t[%i, %j] [2, 5] [1, 2] : tensor<10x20xf32> to tensor<2x5xf32>
  %w = linalg.fill ins(%v : f32) outs(%s : tensor<2x5xf32>) -> tensor<2x5xf32>
  %r = tensor.insert_slice %w into %t[%i, %j] [2, 5] [1, 2] : tensor<2x5xf32> into tensor<10x20xf32>
  return %r : tensor<10x20xf32>
}
