// The same loop writing straight into the loop-carried tensor at the induction variable,
// and a read of the input after the loop.
func.func @loop_direct(%t: tensor<16xf32>) -> (tensor<16xf32>, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %t) -> (tensor<16xf32>) {
    %v = vector.transfer_read %acc[%i], %pad : tensor<16xf32>, vector<4xf32>
    %y = arith.mulf %v, %v : vector<4xf32>
    %w = vector.transfer_write %y, %acc[%i] : vector<4xf32>, tensor<16xf32>
    scf.yield %w : tensor<16xf32>
  }
  %first = vector.transfer_read %t[%c0], %pad : tensor<16xf32>, vector<4xf32>
  return %r, %first : tensor<16xf32>, vector<4xf32>
}
