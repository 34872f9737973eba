// #map aliases inside attribute dictionaries (generic, matmul's indexing_maps), a layout
// alias inside a type alias, a dense constant alias and a boolean argument-attribute alias.
#a_map = affine_map<(m, n, k) -> (m, k)>
#b_map = affine_map<(m, n, k) -> (k, n)>
#c_map = affine_map<(m, n, k) -> (m, n)>
#flip = affine_map<(i, j) -> (j, i)>
#same = affine_map<(i, j) -> (i, j)>
#lay = strided<[?, 1], offset: ?>
#twos = dense<2.0> : tensor<4x4xf32>
#yes = true
!sq = tensor<4x4xf32>
!view = memref<4x4xf32, #lay>
func.func @maps(%a: !sq {bufferization.writable = #yes}, %b: !sq, %m: !view) -> (!sq, !sq) {
  %c0 = arith.constant 0 : index
  %k = arith.constant #twos
  %p = linalg.matmul indexing_maps = [#a_map, #b_map, #c_map] ins(%b, %k : !sq, !sq) outs(%a : !sq) -> !sq
  %t = linalg.generic {indexing_maps = [#flip, #same], iterator_types = ["parallel", "parallel"]} ins(%p : !sq) outs(%b : !sq) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> !sq
  %v = memref.load %m[%c0, %c0] : !view
  %w = tensor.insert %v into %a[%c0, %c0] : !sq
  return %t, %w : !sq, !sq
}
