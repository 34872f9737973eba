// An scf.while whose before region passes its argument on unchanged and whose after
// region yields it back, written only in place on the last step through an scf.if.
func.func @f(%t: tensor<4xf32>, %n: index, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%a = %t, %i = %c0) : (tensor<4xf32>, index) -> (tensor<4xf32>, index) {
    %go = arith.cmpi ult, %i, %n : index
    scf.condition(%go) %a, %i : tensor<4xf32>, index
  } do {
  ^bb0(%b: tensor<4xf32>, %j: index):
    %k = arith.addi %j, %c1 : index
    %last = arith.cmpi eq, %k, %n : index
    %y = scf.if %last -> tensor<4xf32> {
      %w = tensor.insert %v into %b[%c0] : tensor<4xf32>
      scf.yield %w : tensor<4xf32>
    } else {
      scf.yield %b : tensor<4xf32>
    }
    scf.yield %y, %k : tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}
