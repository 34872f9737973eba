// A reduction trait alias and a 2-d type alias; the init is a fill of a fresh tensor.
#rows = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
#sum_rows = {indexing_maps = [#rows, #red], iterator_types = ["parallel", "reduction"]}
!mat = tensor<4x6xf32>
!col = tensor<4xf32>
func.func @trait_reduce(%m: !mat) -> !col {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : !col
  %init = linalg.fill ins(%zero : f32) outs(%e : !col) -> !col
  %s = linalg.generic #sum_rows ins(%m : !mat) outs(%init : !col) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> !col
  return %s : !col
}
