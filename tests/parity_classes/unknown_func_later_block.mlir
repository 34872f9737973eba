// one-shot: allow-unknown-ops
// Function boundaries off: the function op is not bufferizable, so the argument of its
// later block is not writable; the write into it copies, the branch operands stay in place.
func.func @f(%t: tensor<4xf32>, %c: i1, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  cf.cond_br %c, ^bb1(%f : tensor<4xf32>), ^bb1(%t : tensor<4xf32>)
^bb1(%x: tensor<4xf32>):
  %w = tensor.insert %v into %x[%c0] : tensor<4xf32>
  return %w : tensor<4xf32>
}
