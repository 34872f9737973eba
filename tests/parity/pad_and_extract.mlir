// tensor.pad reads its source into a new buffer; writing the source afterwards is in
// place even though the padded tensor is read later.
func.func @f(%t: tensor<4xf32>, %v: f32, %i: index) -> (tensor<4xf32>, f32) {
  %p = tensor.pad %t low[1] high[1] {
  ^bb0(%k: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  %w = tensor.insert %v into %t[%i] : tensor<4xf32>
  %e = tensor.extract %p[%i] : tensor<6xf32>
  return %w, %e : tensor<4xf32>, f32
}
