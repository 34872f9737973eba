// linalg.copy of elements 0..2 of %t into elements 1..3 of %t: %r = [1, 1, 2, 3], while %t
// itself is still read afterwards (%t[2] = 3). In place, the copy would shift %t's own
// elements, and an elementwise copy in place reads elements it already overwrote.
// Right: %r = [1, 1, 2, 3] and %x = 3; printed [1, 1, 2, 3, 3].
func.func @main() {
  %c2 = arith.constant 2 : index
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.copy ins(%cst : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %src = tensor.extract_slice %t[0] [3] [1] : tensor<4xf32> to tensor<3xf32>
  %dst = tensor.extract_slice %t[1] [3] [1] : tensor<4xf32> to tensor<3xf32>
  %c = linalg.copy ins(%src : tensor<3xf32>) outs(%dst : tensor<3xf32>) -> tensor<3xf32>
  %r = tensor.insert_slice %c into %t[1] [3] [1] : tensor<3xf32> into tensor<4xf32>
  %x = tensor.extract %t[%c2] : tensor<4xf32>
  %xs = tensor.from_elements %x : tensor<1xf32>
  %e5 = tensor.empty() : tensor<5xf32>
  %o1 = tensor.insert_slice %r into %e5[0] [4] [1] : tensor<4xf32> into tensor<5xf32>
  %o2 = tensor.insert_slice %xs into %o1[4] [1] [1] : tensor<1xf32> into tensor<5xf32>
  %u = tensor.cast %o2 : tensor<5xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
