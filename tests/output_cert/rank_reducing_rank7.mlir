// A rank-reducing insert_slice into a rank-7 tensor: sizes [1, 2, 1, 4, 1, 1, 1] become
// the source type 2x1x4x1x1 by dropping the first and the last unit dimensions.
func.func @main() {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x2x1x4x1x1x2xf32>
  %big = linalg.fill ins(%z : f32) outs(%e : tensor<2x2x1x4x1x1x2xf32>) -> tensor<2x2x1x4x1x1x2xf32>
  %e2 = tensor.empty() : tensor<2x1x4x1x1xf32>
  %src = linalg.fill ins(%one : f32) outs(%e2 : tensor<2x1x4x1x1xf32>) -> tensor<2x1x4x1x1xf32>
  %r = tensor.insert_slice %src into %big[1, 0, 0, 0, 0, 0, 1] [1, 2, 1, 4, 1, 1, 1] [1, 1, 1, 1, 1, 1, 1]
      : tensor<2x1x4x1x1xf32> into tensor<2x2x1x4x1x1x2xf32>
  %c = tensor.collapse_shape %r [[0, 1, 2, 3, 4, 5, 6]] : tensor<2x2x1x4x1x1x2xf32> into tensor<32xf32>
  %u = tensor.cast %c : tensor<32xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
