// A vectorised loop: each iteration reads a tile of the loop-carried tensor, computes and
// writes it back into a slice of that live tensor.
func.func @loop_tiles(%t: tensor<16xf32>, %x: f32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %bx = vector.broadcast %x : f32 to vector<4xf32>
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %t) -> (tensor<16xf32>) {
    %s = tensor.extract_slice %acc[%i] [4] [1] : tensor<16xf32> to tensor<4xf32>
    %v = vector.transfer_read %s[%c0], %pad {in_bounds = [true]} : tensor<4xf32>, vector<4xf32>
    %y = arith.addf %v, %bx : vector<4xf32>
    %w = vector.transfer_write %y, %s[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<4xf32>
    %u = tensor.insert_slice %w into %acc[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
    scf.yield %u : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
