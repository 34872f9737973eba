// Type aliases in loop-carried values, slices and a call; a trait alias inside the loop.
#id = affine_map<(i) -> (i)>
#neg = {indexing_maps = [#id], iterator_types = ["parallel"]}
!big = tensor<16xf32>
!tile = tensor<4xf32>
func.func private @use(!tile) -> f32
func.func @tiles(%t: !big) -> (!big, f32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %t) -> (!big) {
    %s = tensor.extract_slice %acc[%i] [4] [1] : !big to !tile
    %n = linalg.generic #neg outs(%s : !tile) {
    ^bb0(%y: f32):
      %z = arith.negf %y : f32
      linalg.yield %z : f32
    } -> !tile
    %u = tensor.insert_slice %n into %acc[%i] [4] [1] : !tile into !big
    scf.yield %u : !big
  }
  %first = tensor.extract_slice %t[0] [4] [1] : !big to !tile
  %f = func.call @use(%first) : (!tile) -> f32
  return %r, %f : !big, f32
}
