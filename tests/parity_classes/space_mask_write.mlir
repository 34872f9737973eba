// A vector.mask around a transfer_write into a memory-space-1 tensor: the masked write
// is partial, so the fill before it stays live.
func.func @f(%v: vector<8xf32>, %m: vector<8xi1>, %x: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %a = bufferization.alloc_tensor() {memory_space = 1 : i64} : tensor<8xf32>
  %f = linalg.fill ins(%x : f32) outs(%a : tensor<8xf32>) -> tensor<8xf32>
  %w = vector.mask %m { vector.transfer_write %v, %f[%c0] : vector<8xf32>, tensor<8xf32> } : vector<8xi1> -> tensor<8xf32>
  return %w : tensor<8xf32>
}
