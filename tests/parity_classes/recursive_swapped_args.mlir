// A recursive function passes its two arguments to itself swapped and returns the call's
// results: each operand may alias both results, so both go out of place.
func.func @swap(%x: tensor<4xf32>, %y: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  %k = arith.subi %n, %c1 : index
  %r:2 = call @swap(%y, %x, %k) : (tensor<4xf32>, tensor<4xf32>, index) -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
