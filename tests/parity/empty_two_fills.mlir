// One tensor.empty feeding two fills whose results are both live: the empty has no
// contents to protect, but the two fills must not share a buffer.
func.func @f(%v: f32, %u: f32, %i: index) -> (f32, f32) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %b = linalg.fill ins(%u : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %x = tensor.extract %a[%i] : tensor<8xf32>
  %y = tensor.extract %b[%i] : tensor<8xf32>
  return %x, %y : f32, f32
}
