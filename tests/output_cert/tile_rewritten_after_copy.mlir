// A tile of %t is filled in place, then inserted back out of place (%t's buffer is written
// again by the add): the insert's copy of %t reads the filled tile too, but the copied tile
// is overwritten at once by the new tile, so the fill in place is right.
// Right: %r = [0, 1, 2, 3, 9, 9, 9, 9], %w = %r + %r; printed after each other.
func.func @main() {
  %nine = arith.constant 9.0 : f32
  %cst = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %t = linalg.copy ins(%cst : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = tensor.extract_slice %t[4] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %f = linalg.fill ins(%nine : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %f into %t[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %w = linalg.add ins(%r, %r : tensor<8xf32>, tensor<8xf32>) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %w : tensor<8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
