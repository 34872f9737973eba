func.func @main() {
  %half = arith.constant 0.5 : f32
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<4x2xf32>
  %init = linalg.fill ins(%half : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = scf.forall (%i) in (2) shared_outs(%o = %init) -> (tensor<4x2xf32>) {
    %off = arith.muli %i, %c2 : index
    %neg = linalg.map { arith.negf } ins(%o : tensor<4x2xf32>) outs(%o : tensor<4x2xf32>)
    %t = tensor.empty() : tensor<2x2xf32>
    %tile = linalg.fill ins(%half : f32) outs(%t : tensor<2x2xf32>) -> tensor<2x2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %tile into %o[%off, 0] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<4x2xf32>
    }
  }
  %u = tensor.cast %r : tensor<4x2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
