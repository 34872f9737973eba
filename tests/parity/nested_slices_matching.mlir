// A slice of a slice, written and inserted back twice at matching positions.
func.func @f(%t: tensor<32xf32>, %v: f32) -> tensor<32xf32> {
  %a = tensor.extract_slice %t[8] [16] [1] : tensor<32xf32> to tensor<16xf32>
  %b = tensor.extract_slice %a[2] [4] [1] : tensor<16xf32> to tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  %a2 = tensor.insert_slice %w into %a[2] [4] [1] : tensor<4xf32> into tensor<16xf32>
  %t2 = tensor.insert_slice %a2 into %t[8] [16] [1] : tensor<16xf32> into tensor<32xf32>
  return %t2 : tensor<32xf32>
}
