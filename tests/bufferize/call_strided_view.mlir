// A strided view passed to a function that writes its argument and returns it: the
// identity-layout argument is a copy of the view, and the call's result is that copy.
func.func @negate(%t: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = linalg.negf ins(%t : tensor<2x2xf32>) outs(%t : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @main() {
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %big = linalg.fill ins(%one : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %view = tensor.extract_slice %big[1, 1] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %r = func.call @negate(%view) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
