// Exchanged iter_args, the loop only reads them; the init is read after the loop.
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>, %n: index) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (tensor<8xf32>, tensor<8xf32>) {
    scf.yield %y, %x : tensor<8xf32>, tensor<8xf32>
  }
  %e = tensor.extract %a[%c0] : tensor<8xf32>
  return %r#1, %e : tensor<8xf32>, f32
}
