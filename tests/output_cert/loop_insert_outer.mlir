// Each iteration i (0..2) of the loop makes %r: %t (defined before the loop) with element
// i set to 9, and adds %r[0] + %r[1] + %r[2] to the sum. If the insert went in place,
// iteration i would also see the 9s of the iterations before it.
// Right: %t = [1, 2, 3, 4]; i=0: 9+2+3 = 14; i=1: 1+9+3 = 13; i=2: 1+2+9 = 12; sum 39.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %nine = arith.constant 9.0 : f32
  %zero = arith.constant 0.0 : f32
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.copy ins(%cst : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = scf.for %i = %c0 to %c3 step %c1 iter_args(%s = %zero) -> (f32) {
    %r = tensor.insert %nine into %t[%i] : tensor<4xf32>
    %x0 = tensor.extract %r[%c0] : tensor<4xf32>
    %x1 = tensor.extract %r[%c1] : tensor<4xf32>
    %x2 = tensor.extract %r[%c2] : tensor<4xf32>
    %s0 = arith.addf %s, %x0 : f32
    %s1 = arith.addf %s0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    scf.yield %s2 : f32
  }
  %p = tensor.from_elements %sum : tensor<1xf32>
  %u = tensor.cast %p : tensor<1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
