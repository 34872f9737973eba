// A #trait dictionary alias on linalg.generic; %a is read after the generic writes into
// it, so the write must copy.
#id = affine_map<(i) -> (i)>
#ew = {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
!v = tensor<8xf32>
func.func @trait_raw(%a: !v, %b: !v) -> (!v, f32) {
  %c3 = arith.constant 3 : index
  %r = linalg.generic #ew ins(%b : !v) outs(%a : !v) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> !v
  %old = tensor.extract %a[%c3] : !v
  return %r, %old : !v, f32
}
