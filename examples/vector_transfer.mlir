// A partial transfer_write into %t, which is read afterwards (a copy), and a write into
// a fresh tensor (in place).
func.func @f(%t: tensor<8xf32>, %v: vector<4xf32>, %s: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = vector.transfer_write %v, %t[%c1] : vector<4xf32>, tensor<8xf32>
  %pad = arith.constant 0.0 : f32
  %r = vector.transfer_read %t[%c0], %pad : tensor<8xf32>, vector<4xf32>
  %e = tensor.empty() : tensor<8xf32>
  %f = vector.transfer_write %r, %e[%c0] : vector<4xf32>, tensor<8xf32>
  return %w, %f : tensor<8xf32>, tensor<8xf32>
}
