func.func @f(%t: tensor<8xf32>, %v: f32, %w: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %a = linalg.fill ins(%v : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  %b = linalg.fill ins(%w : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}
