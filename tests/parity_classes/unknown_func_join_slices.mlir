// one-shot: bufferize-function-boundaries=false
// Function boundaries off: an argument and a fresh tensor meet in a block argument that is
// sliced and written.
func.func @f(%t: tensor<8xf32>, %c: i1, %v: f32) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<8xf32>
  cf.cond_br %c, ^join(%t : tensor<8xf32>), ^fresh
^fresh:
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  cf.br ^join(%f : tensor<8xf32>)
^join(%x: tensor<8xf32>):
  %s = tensor.extract_slice %x[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %g = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.insert_slice %g into %x[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %y = tensor.extract %t[%c0] : tensor<8xf32>
  return %u, %y : tensor<8xf32>, f32
}
