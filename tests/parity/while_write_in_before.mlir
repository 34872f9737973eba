// A write in the "before" region of scf.while, the initial value read after the loop.
func.func @f(%a: tensor<4xf32>, %v: f32, %n: index) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %r = scf.while (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> {
    %x2 = tensor.insert %v into %x[%c0] : tensor<4xf32>
    %e = tensor.extract %x2[%n] : tensor<4xf32>
    %go = arith.cmpf olt, %e, %v : f32
    scf.condition(%go) %x2 : tensor<4xf32>
  } do {
  ^bb0(%x: tensor<4xf32>):
    scf.yield %x : tensor<4xf32>
  }
  %z = tensor.extract %a[%c0] : tensor<4xf32>
  return %r, %z : tensor<4xf32>, f32
}
