// Two iter_args exchanged by the yield: each iteration's writes land in the buffer the
// other argument held, so neither write can stay in place.
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>, %v: f32, %n: index) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<8xf32>, tensor<8xf32>) {
    %x2 = tensor.insert %v into %x[%k] : tensor<8xf32>
    %y2 = tensor.insert %v into %y[%c0] : tensor<8xf32>
    scf.yield %y2, %x2 : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}
