// Read, compute and write back into the same tensor, twice; a masked write and a
// transposed read; the original values are read at the end.
#tr = affine_map<(a, b) -> (b, a)>
func.func @chain(%t: tensor<4x4xf32>, %n: index) -> (tensor<4x4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant 0.0 : f32
  %two = arith.constant dense<2.0> : vector<4x4xf32>
  %a = vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<4x4xf32>, vector<4x4xf32>
  %b = arith.mulf %a, %two : vector<4x4xf32>
  %w1 = vector.transfer_write %b, %t[%c0, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, tensor<4x4xf32>
  %m = vector.create_mask %n : vector<4xi1>
  %row = vector.transfer_read %w1[%c2, %c0], %pad, %m {permutation_map = affine_map<(a, b) -> (b)>} : tensor<4x4xf32>, vector<4xf32>
  %w2 = vector.transfer_write %row, %w1[%c0, %c0], %m : vector<4xf32>, tensor<4x4xf32>
  %tt = vector.transfer_read %w2[%c0, %c0], %pad {permutation_map = #tr} : tensor<4x4xf32>, vector<4x4xf32>
  %w3 = vector.transfer_write %tt, %w2[%c0, %c0] : vector<4x4xf32>, tensor<4x4xf32>
  %old = tensor.extract %t[%c2, %c2] : tensor<4x4xf32>
  return %w3, %old : tensor<4x4xf32>, f32
}
