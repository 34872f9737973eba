// The generic's input is also its init, and the input is read after the generic.
#id = affine_map<(d0) -> (d0)>
func.func @f(%t: tensor<8xf32>, %i: index) -> (tensor<8xf32>, f32) {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<8xf32>) outs(%t : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %e = tensor.extract %t[%i] : tensor<8xf32>
  return %r, %e : tensor<8xf32>, f32
}
