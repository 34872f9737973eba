// A slice (a strided view) passed to a function that writes its argument and returns it.
// The signature takes an identity-layout buffer, so the call passes a copy of the slice;
// the call's result is the buffer the callee wrote: that copy, not the slice.
func.func @set(%t: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c = arith.constant 7.0 : f32
  %r = linalg.fill ins(%c : f32) outs(%t : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @main() {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = tensor.extract_slice %a[0, 2] [2, 2] [1, 1] : tensor<4x4xf32> to tensor<2x2xf32>
  %r = func.call @set(%s) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
