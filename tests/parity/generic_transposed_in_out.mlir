// ins and outs are one tensor, read through a transposed map: not elementwise, so the
// init cannot be overwritten in place while the input is still read.
#t = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<4x4xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
