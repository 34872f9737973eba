// Iteration i fills element i of %t (a value defined before the loop) and reads element
// i-1 of %t: disjoint within one iteration, but if the fill goes in place, iteration i
// reads what iteration i-1 wrote. Right: x sums 1+2+3 and y sums 3*100, 306.
func.func @main() {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %hundred = arith.constant 100.0 : f32
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.copy ins(%cst : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum0 = arith.constant 0.0 : f32
  %res = scf.for %i = %c1 to %c4 step %c1 iter_args(%s = %sum0) -> (f32) {
    %tile = tensor.extract_slice %t[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    %f = linalg.fill ins(%hundred : f32) outs(%tile : tensor<1xf32>) -> tensor<1xf32>
    %prev = arith.subi %i, %c1 : index
    %x = tensor.extract %t[%prev] : tensor<4xf32>
    %y = tensor.extract %f[%c0] : tensor<1xf32>
    %s1 = arith.addf %s, %x : f32
    %s2 = arith.addf %s1, %y : f32
    scf.yield %s2 : f32
  }
  %p = tensor.from_elements %res : tensor<1xf32>
  %u = tensor.cast %p : tensor<1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
