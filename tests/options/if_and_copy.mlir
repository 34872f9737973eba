func.func @f(%t: tensor<8xf32>, %v: f32, %c: i1) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.insert %v into %t[%c0] : tensor<8xf32>
  %r = scf.if %c -> tensor<8xf32> {
    %b = tensor.insert %v into %t[%c1] : tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  } else {
    scf.yield %a : tensor<8xf32>
  }
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %g = linalg.copy ins(%a : tensor<8xf32>) outs(%f : tensor<8xf32>) -> tensor<8xf32>
  return %r, %g : tensor<8xf32>, tensor<8xf32>
}
