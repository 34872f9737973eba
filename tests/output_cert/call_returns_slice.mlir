// @head returns a slice of its argument without writing it; the caller then overwrites
// the argument, so the slice it got must be a copy (made after the call).
func.func private @head(%t: tensor<4xf32>) -> tensor<2xf32> {
  %s = tensor.extract_slice %t[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}
func.func @main() {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.copy ins(%cst : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %h = func.call @head(%t) : (tensor<4xf32>) -> tensor<2xf32>
  %z = arith.constant 0.0 : f32
  %w = linalg.fill ins(%z : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %h : tensor<2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %w : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
