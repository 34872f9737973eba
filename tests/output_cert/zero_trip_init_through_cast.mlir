// The loop's init is a cast of a value read again after the loop, so the cast's operand
// goes out of place; the body overwrites its iteration argument without reading it. The
// loop runs zero times (constant bounds 0 to 0): its result is the init, the cast of
// [1, 2, 3, 4], so the copy at the cast must carry the contents. Element 1 of the result
// and of the original: 2 and 2.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %init = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.copy ins(%init : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %d = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %0 = scf.for %iv = %c0 to %c0 step %c1 iter_args(%1 = %d) -> tensor<?xf32> {
    %r = linalg.fill ins(%cst : f32) outs(%1 : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %r : tensor<?xf32>
  }
  %s = tensor.cast %0 : tensor<?xf32> to tensor<4xf32>
  %x = tensor.extract %s[%c1] : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %w = linalg.fill ins(%cst : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %y = tensor.extract %a[%c1] : tensor<4xf32>
  %p = tensor.from_elements %x, %y : tensor<2xf32>
  %u = tensor.cast %p : tensor<2xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
