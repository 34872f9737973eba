func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    %m = linalg.map { arith.addf } ins(%z, %z : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
    %u = tensor.cast %m : tensor<4xf32> to tensor<*xf32>
    func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  }
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
