// Edge shapes: 0-d transfers, a broadcast dimension in the map, a transposed masked read
// (the mask is in source-dimension order), a dynamic destination.
func.func @f(%t: tensor<f32>, %u: tensor<4x8xf32>, %m: vector<4x8xi1>, %d: tensor<?x?xf32>) -> (tensor<f32>, vector<4x8xf32>, vector<8x4xf32>, tensor<?x?xf32>) {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %v = vector.transfer_read %t[], %pad : tensor<f32>, vector<f32>
  %w = vector.transfer_write %v, %t[] : vector<f32>, tensor<f32>
  %b = vector.transfer_read %u[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (0, d1)>} : tensor<4x8xf32>, vector<4x8xf32>
  %tm = vector.transfer_read %u[%c0, %c0], %pad, %m {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : tensor<4x8xf32>, vector<8x4xf32>
  %x = vector.transfer_read %d[%c0, %c0], %pad : tensor<?x?xf32>, vector<2x2xf32>
  %y = vector.transfer_write %x, %d[%c0, %c0] : vector<2x2xf32>, tensor<?x?xf32>
  return %w, %b, %tm, %y : tensor<f32>, vector<4x8xf32>, vector<8x4xf32>, tensor<?x?xf32>
}
