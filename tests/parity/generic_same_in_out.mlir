// linalg.generic reading and writing one tensor elementwise: in place.
#id = affine_map<(d0) -> (d0)>
func.func @f(%t: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<8xf32>) outs(%t : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
