func.func @f(%t: tensor<4xf32>, %v: f32, %c: i1) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %r = scf.if %c -> tensor<4xf32> {
    %a = tensor.insert %v into %t[%c0] : tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
