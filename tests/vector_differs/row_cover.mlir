// A row written at offset 0 into a 2x4 tensor. mlir-opt 22 pairs vector and destination
// dimensions by position (4 against 2) and counts the write as covering its destination:
// no read, so the dead fill before it stays in place and row 1 ends up holding the fill's
// value. bufferlog follows the permutation map (the vector runs along dimension 1;
// dimension 0, of size 2, gets one row): a partial write that reads, and the fill copies.
func.func @row_cover(%x: tensor<2x4xf32>, %v: vector<4xf32>, %s: f32) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %h = linalg.fill ins(%s : f32) outs(%x : tensor<2x4xf32>) -> tensor<2x4xf32>
  %w = vector.transfer_write %v, %x[%c0, %c0] : vector<4xf32>, tensor<2x4xf32>
  return %w : tensor<2x4xf32>
}
