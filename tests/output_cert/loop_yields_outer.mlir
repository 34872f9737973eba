// The loop yields %t, a tensor made before it, as its next iteration argument, and writes
// each iteration argument in place (%n = %a + %t). The buffer the loop carries must be a
// copy of %t: written in place in the next iteration, %t itself would change.
// Right: iteration 0: %n = [11, 21]; iterations 1 and 2: %a = %t = [1, 1], %n = [2, 2];
// the sum of %n[0] is 11 + 2 + 2 = 15; %r = [1, 1] and %t = [1, 1]: printed [15, 1, 1, 1, 1].
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %cst = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.copy ins(%cst : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %t = linalg.fill ins(%one : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %init, %s = %zero) -> (tensor<2xf32>, f32) {
    %n = linalg.add ins(%a, %t : tensor<2xf32>, tensor<2xf32>) outs(%a : tensor<2xf32>) -> tensor<2xf32>
    %x = tensor.extract %n[%c0] : tensor<2xf32>
    %s1 = arith.addf %s, %x : f32
    scf.yield %t, %s1 : tensor<2xf32>, f32
  }
  %e5 = tensor.empty() : tensor<5xf32>
  %sum = tensor.from_elements %r#1 : tensor<1xf32>
  %o1 = tensor.insert_slice %sum into %e5[0] [1] [1] : tensor<1xf32> into tensor<5xf32>
  %o2 = tensor.insert_slice %r#0 into %o1[1] [2] [1] : tensor<2xf32> into tensor<5xf32>
  %o3 = tensor.insert_slice %t into %o2[3] [2] [1] : tensor<2xf32> into tensor<5xf32>
  %u = tensor.cast %o3 : tensor<5xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
