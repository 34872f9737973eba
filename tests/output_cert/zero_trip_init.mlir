// A loop whose body overwrites its iteration argument without reading it; the caller
// reads the init again afterwards, so the init goes out of place. With zero trips the
// loop's result is its init: element 1 is 2 in both prints.
func.func @f(%A: tensor<?xf32>, %lb: index, %ub: index) -> (f32, f32) {
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %0 = scf.for %iv = %lb to %ub step %c1 iter_args(%1 = %A) -> tensor<?xf32> {
    %r = linalg.fill ins(%cst : f32) outs(%1 : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %r : tensor<?xf32>
  }
  %x = tensor.extract %0[%c1] : tensor<?xf32>
  %y = tensor.extract %A[%c1] : tensor<?xf32>
  return %x, %y : f32, f32
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %init = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.copy ins(%init : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %d = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %x, %y = func.call @f(%d, %c3, %c3) : (tensor<?xf32>, index, index) -> (f32, f32)
  %p = tensor.from_elements %x, %y : tensor<2xf32>
  %u = tensor.cast %p : tensor<2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
