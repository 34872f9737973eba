// An scf.if yields a tensor of memory space 1 on one branch and of the default space on
// the other; the analysis decides (bufferizing it is refused: inconsistent spaces).
func.func @f(%c: i1, %v: f32, %i: index) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    %a = bufferization.alloc_tensor() {memory_space = 1 : i64} : tensor<4xf32>
    %f = linalg.fill ins(%v : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f : tensor<4xf32>
  } else {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f : tensor<4xf32>
  }
  %w = tensor.insert %v into %r[%i] : tensor<4xf32>
  return %w : tensor<4xf32>
}
