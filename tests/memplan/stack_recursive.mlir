// A recursive callee (bufferize --promote-buffers-to-stack): whether @rec lets its
// argument out depends on @rec itself; no return of @rec hands it back, so main's buffer
// may live on the stack.
func.func private @rec(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %p -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %m = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  } else {
    %k = arith.subi %n, %c1 : index
    %q = func.call @rec(%a, %k) : (tensor<4xf32>, index) -> tensor<4xf32>
    scf.yield %q : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = func.call @rec(%x, %c3) : (tensor<4xf32>, index) -> tensor<4xf32>
  %u = tensor.cast %y : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
