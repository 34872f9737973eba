// one-shot: bufferize-function-boundaries=false
// Function boundaries off: a later block receives only a fresh tensor; its argument is
// still not writable (mlir-opt asks the owner op, not the incoming values).
func.func @f(%v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  cf.br ^bb1(%f : tensor<4xf32>)
^bb1(%x: tensor<4xf32>):
  %w = tensor.insert %v into %x[%c0] : tensor<4xf32>
  %r = tensor.extract %w[%c0] : tensor<4xf32>
  return %r : f32
}
