// A recursive function passes one argument on unchanged and returns the call's result.
func.func @down(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %k = arith.subi %n, %c1 : index
  %r = call @down(%x, %k) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
