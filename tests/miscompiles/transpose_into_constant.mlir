func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %c = arith.constant dense<[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %t = linalg.transpose ins(%a : tensor<3x2xf32>) outs(%c : tensor<2x3xf32>) permutation = [1, 0]
  %u = tensor.cast %t : tensor<2x3xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
