func.func @f(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%a = %t, %k = %c0) : (tensor<4xf32>, index) -> (tensor<4xf32>, index) {
    %p = arith.cmpi slt, %k, %n : index
    scf.condition(%p) %a, %k : tensor<4xf32>, index
  } do {
  ^bb0(%b: tensor<4xf32>, %k2: index):
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%b, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %s, %k3 : tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}
