// One tensor as both `outs` of a two-result linalg.generic: the results are the input and
// its negation, so they cannot share one buffer.
#map = affine_map<(i) -> (i)>
func.func @two_outs(%t1: tensor<4xf32>, %t2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %o:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%t1 : tensor<4xf32>) outs(%t2, %t2 : tensor<4xf32>, tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %n = arith.negf %a : f32
      linalg.yield %a, %n : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %o#0, %o#1 : tensor<4xf32>, tensor<4xf32>
}
func.func @main() {
  %t1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %t2 = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = func.call @two_outs(%t1, %t2) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %u0 = tensor.cast %r#0 : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
