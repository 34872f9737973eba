// scf.while whose "after" region hands its arguments back exchanged; the condition
// forwards them unchanged.
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %v: f32, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:3 = scf.while (%i = %c0, %x = %a, %y = %b) : (index, tensor<4xf32>, tensor<4xf32>) -> (index, tensor<4xf32>, tensor<4xf32>) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %x, %y : index, tensor<4xf32>, tensor<4xf32>
  } do {
  ^bb0(%i: index, %x: tensor<4xf32>, %y: tensor<4xf32>):
    %x2 = tensor.insert %v into %x[%c0] : tensor<4xf32>
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %y, %x2 : index, tensor<4xf32>, tensor<4xf32>
  }
  return %r#2 : tensor<4xf32>
}
