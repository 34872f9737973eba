// @make returns a fresh buffer each call, called in a loop: with out-parameters the
// caller allocates it; hoisting and stack promotion then take it off the heap.
func.func private @make(%x: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %one) -> (f32) {
    %t = func.call @make(%acc) : (f32) -> tensor<4xf32>
    %m = linalg.map { arith.addf } ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%t : tensor<4xf32>)
    %v = tensor.extract %m[%c0] : tensor<4xf32>
    scf.yield %v : f32
  }
  %e = tensor.empty() : tensor<1xf32>
  %s = tensor.insert %r into %e[%c0] : tensor<1xf32>
  %u = tensor.cast %s : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
