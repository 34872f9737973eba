// one-shot: bufferize-function-boundaries=false
// Function boundaries off: a CFG loop writes its block argument each trip.
func.func @f(%t: tensor<4xf32>, %n: index, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  cf.br ^loop(%c0, %f : index, tensor<4xf32>)
^loop(%i: index, %x: tensor<4xf32>):
  %w = tensor.insert %v into %x[%i] : tensor<4xf32>
  %k = arith.addi %i, %c1 : index
  %go = arith.cmpi ult, %k, %n : index
  cf.cond_br %go, ^loop(%k, %w : index, tensor<4xf32>), ^done(%w : tensor<4xf32>)
^done(%r: tensor<4xf32>):
  %s = tensor.extract %t[%c0] : tensor<4xf32>
  %r2 = tensor.insert %s into %r[%c1] : tensor<4xf32>
  return %r2 : tensor<4xf32>
}
