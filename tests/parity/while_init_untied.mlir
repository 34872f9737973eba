// scf.while whose inits do not line up with its results (an i1 first, one result fewer):
// the constant init is tied to no result but is still an iteration argument, written
// from the loop's point of view, so it must not stay in the read-only constant.
func.func @f(%go: i1, %t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %k = arith.constant dense<2.0> : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %r = scf.while (%c = %go, %x = %t, %y = %k) : (i1, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    scf.condition(%c) %x : tensor<4xf32>
  } do {
  ^bb0(%x: tensor<4xf32>):
    %e = tensor.extract %x[%c0] : tensor<4xf32>
    %s = arith.addf %e, %e : f32
    %x2 = tensor.insert %s into %x[%c0] : tensor<4xf32>
    %stop = arith.cmpf olt, %s, %s : f32
    scf.yield %stop, %x2, %k : i1, tensor<4xf32>, tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
