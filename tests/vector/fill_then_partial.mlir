// A fill in place, then a partial write (offset 1) into the fill's operand: the write reads
// the original %t after the fill overwrote its buffer.
func.func @fill_then_partial(%t: tensor<8xf32>, %v: vector<4xf32>, %s: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %c1 = arith.constant 1 : index
  %f = linalg.fill ins(%s : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  %w = vector.transfer_write %v, %t[%c1] : vector<4xf32>, tensor<8xf32>
  return %f, %w : tensor<8xf32>, tensor<8xf32>
}
