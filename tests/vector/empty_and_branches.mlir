// Writes into a fresh tensor (tensor.empty), a rank-reducing write at offset 0 (mlir pairs
// vector and destination dimensions by position), a dynamic destination, and writes in
// the branches of an scf.if.
func.func @empty_and_branches(%c: i1, %v: vector<8xf32>, %d: tensor<?xf32>, %t: tensor<4x8xf32>) -> (tensor<8xf32>, tensor<4x8xf32>, tensor<?xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %w = vector.transfer_write %v, %e[%c0] : vector<8xf32>, tensor<8xf32>
  %rr = vector.transfer_write %v, %t[%c0, %c0] : vector<8xf32>, tensor<4x8xf32>
  %dw = vector.transfer_write %v, %d[%c0] : vector<8xf32>, tensor<?xf32>
  %r = scf.if %c -> (tensor<4x8xf32>) {
    %a = vector.transfer_write %v, %t[%c1, %c0] : vector<8xf32>, tensor<4x8xf32>
    scf.yield %a : tensor<4x8xf32>
  } else {
    scf.yield %t : tensor<4x8xf32>
  }
  return %w, %rr, %dw, %r : tensor<8xf32>, tensor<4x8xf32>, tensor<?xf32>, tensor<4x8xf32>
}
