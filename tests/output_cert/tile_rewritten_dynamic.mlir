// As tile_rewritten_after_copy, with a tile at a run-time offset (elements 1, 3 and 5 for
// an offset of 1 and a stride of 2): the insert's copy takes the fill's elements from the
// same subview parameters that the tile's copy then overwrites.
// Right: %r = [0, 9, 2, 9, 4, 9, 6, 7], %w = %r + %r.
func.func @tile(%off: index) -> (tensor<8xf32>, tensor<8xf32>) {
  %nine = arith.constant 9.0 : f32
  %cst = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %t = linalg.copy ins(%cst : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = tensor.extract_slice %t[%off] [3] [2] : tensor<8xf32> to tensor<3xf32>
  %f = linalg.fill ins(%nine : f32) outs(%s : tensor<3xf32>) -> tensor<3xf32>
  %r = tensor.insert_slice %f into %t[%off] [3] [2] : tensor<3xf32> into tensor<8xf32>
  %w = linalg.add ins(%r, %r : tensor<8xf32>, tensor<8xf32>) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  return %r, %w : tensor<8xf32>, tensor<8xf32>
}
func.func @main() {
  %c1 = arith.constant 1 : index
  %r:2 = func.call @tile(%c1) : (index) -> (tensor<8xf32>, tensor<8xf32>)
  %u = tensor.cast %r#0 : tensor<8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %r#1 : tensor<8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
