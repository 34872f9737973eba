// A dictionary alias (#ew) as linalg.generic's trait and a type alias (!v).
#id = affine_map<(i) -> (i)>
#ew = {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
!v = tensor<8xf32>
func.func @f(%a: !v, %b: !v) -> !v {
  %r = linalg.generic #ew ins(%b : !v) outs(%a : !v) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> !v
  return %r : !v
}
