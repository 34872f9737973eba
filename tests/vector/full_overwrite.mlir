// A write that covers its whole destination does not read it; the original is read
// afterwards, so the write must go to a copy.
func.func @full_overwrite(%t: tensor<4x8xf32>, %v: vector<4x8xf32>, %i: index) -> (tensor<4x8xf32>, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %w = vector.transfer_write %v, %t[%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<4x8xf32>
  %r = vector.transfer_read %t[%i, %c0], %pad : tensor<4x8xf32>, vector<8xf32>
  return %w, %r : tensor<4x8xf32>, vector<8xf32>
}
