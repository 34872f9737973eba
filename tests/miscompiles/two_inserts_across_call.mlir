func.func @put(%t: tensor<4xf32>, %k: f32) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %r = tensor.insert %k into %t[%c1] : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %k = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%two : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %t1 = tensor.insert %k into %a[%c0] : tensor<4xf32>
  %t2 = func.call @put(%a, %k) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %u1 = tensor.cast %t1 : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %t2 : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
