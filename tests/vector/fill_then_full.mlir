// The same with a write covering all of %t: it reads nothing, so no conflict with the fill's
// write, but the returned fill result and the write share %t.
func.func @fill_then_full(%t: tensor<4xf32>, %v: vector<4xf32>, %s: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = linalg.fill ins(%s : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %w = vector.transfer_write %v, %t[%c0] : vector<4xf32>, tensor<4xf32>
  return %f, %w : tensor<4xf32>, tensor<4xf32>
}
