// Tensors in memory space 1 (alloc_tensor's memory_space): written in place, copied
// with a copy into the same space, and one written while the original is read later.
func.func @f(%v: f32, %i: index) -> (tensor<8xf32>, tensor<8xf32>, f32) {
  %a = bufferization.alloc_tensor() {memory_space = 1 : i64} : tensor<8xf32>
  %f = linalg.fill ins(%v : f32) outs(%a : tensor<8xf32>) -> tensor<8xf32>
  %c = bufferization.alloc_tensor() copy(%f) {memory_space = 1 : i64} : tensor<8xf32>
  %w = tensor.insert %v into %f[%i] : tensor<8xf32>
  %x = tensor.extract %f[%i] : tensor<8xf32>
  %w2 = tensor.insert %x into %c[%i] : tensor<8xf32>
  return %w, %w2, %x : tensor<8xf32>, tensor<8xf32>, f32
}
