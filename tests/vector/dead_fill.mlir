// A fill of %t whose result is unused, then transfer writes into %t: a partial write reads
// %t after the fill overwrote it (conflict); a covering write reads nothing (no conflict);
// a write at a non-constant index reads %y again.
func.func @dead_fill(%t: tensor<4xf32>, %u: tensor<4xf32>, %y: tensor<4xf32>, %v: vector<4xf32>, %s: f32, %i: index) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = linalg.fill ins(%s : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %w = vector.transfer_write %v, %t[%c1] : vector<4xf32>, tensor<4xf32>
  %g = linalg.fill ins(%s : f32) outs(%u : tensor<4xf32>) -> tensor<4xf32>
  %wu = vector.transfer_write %v, %u[%c0] : vector<4xf32>, tensor<4xf32>
  %k = linalg.fill ins(%s : f32) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %wy = vector.transfer_write %v, %y[%i] : vector<4xf32>, tensor<4xf32>
  return %w, %wu, %wy : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
