func.func @g(%t: tensor<4xf32>) -> tensor<4xf32> {
  return %t : tensor<4xf32>
}
func.func @f(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = func.call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %r2 = tensor.insert %x into %r[%c0] : tensor<4xf32>
  return %r2 : tensor<4xf32>
}
