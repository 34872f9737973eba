// Which results become out-parameters: @pub is public (its ABI is kept) and @twice
// returns one buffer twice, so both keep their results. @view_too's view comes back
// copied into a fresh identity-layout buffer, @arg_or_fresh's argument result is dropped
// by the bufferization (equivalent to the argument): their fresh results qualify, as
// both of @two_fresh's do (5 in all).
func.func @pub(%x: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
func.func private @view_too(%x: f32) -> (tensor<4xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = tensor.extract_slice %f[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %f, %s : tensor<4xf32>, tensor<2xf32>
}
func.func private @arg_or_fresh(%t: tensor<4xf32>, %x: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %t, %f : tensor<4xf32>, tensor<4xf32>
}
func.func private @twice(%x: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f, %f : tensor<4xf32>, tensor<4xf32>
}
func.func private @two_fresh(%x: f32) -> (tensor<4xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %y = arith.addf %x, %x : f32
  %g = linalg.fill ins(%y : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  return %f, %g : tensor<4xf32>, tensor<3xf32>
}
func.func @main() {
  %one = arith.constant 1.0 : f32
  %a = call @pub(%one) : (f32) -> tensor<4xf32>
  %b:2 = call @view_too(%one) : (f32) -> (tensor<4xf32>, tensor<2xf32>)
  %c:2 = call @arg_or_fresh(%a, %one) : (tensor<4xf32>, f32) -> (tensor<4xf32>, tensor<4xf32>)
  %d:2 = call @twice(%one) : (f32) -> (tensor<4xf32>, tensor<4xf32>)
  %g:2 = call @two_fresh(%one) : (f32) -> (tensor<4xf32>, tensor<3xf32>)
  %u0 = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %b#1 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %c#0 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %d#1 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %g#1 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
