func.func @g(%t: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %nine = arith.constant 9.0 : f32
  %dead = linalg.fill ins(%nine : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  cf.br ^bb2
^bb2:
  return %t : tensor<4xf32>
}
func.func @main() {
  %true = arith.constant true
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = func.call @g(%a, %true) : (tensor<4xf32>, i1) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
