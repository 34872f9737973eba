// A masked write at offset 0 whose vector covers its destination. mlir-opt 22 counts it
// as no read of the destination (it checks for an enclosing vector.mask, not the mask
// operand), keeps the dead fill in place, and the masked-off lanes then hold the fill's
// value instead of %x's. bufferlog counts the masked write as a read: the fill copies.
func.func @masked_cover(%x: tensor<4xf32>, %v: vector<4xf32>, %s: f32, %m: vector<4xi1>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %h = linalg.fill ins(%s : f32) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  %wx = vector.transfer_write %v, %x[%c0], %m : vector<4xf32>, tensor<4xf32>
  return %wx : tensor<4xf32>
}
