// The outer loop's argument %x holds, from the second run on, the buffer the inner loop
// made in its previous run. The inner loop starts from %x: its first run fills %y (that
// is %x) with 5 unless the fill is copied, and then reads %x[0]. Each inner run yields a
// fresh buffer of 2s. Right: outer run 0 reads 1 (from %init) twice; run 1 reads 2 twice;
// sum 1 + 1 + 2 + 2 = 6. With the fill in place, run 0 would read 5.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %five = arith.constant 5.0 : f32
  %init = arith.constant dense<[1.0, 1.0, 1.0, 1.0]> : tensor<4xf32>
  %r:2 = scf.for %j = %c0 to %c2 step %c1 iter_args(%x = %init, %s = %zero) -> (tensor<4xf32>, f32) {
    %in:2 = scf.for %k = %c0 to %c2 step %c1 iter_args(%y = %x, %t = %s) -> (tensor<4xf32>, f32) {
      %w = linalg.fill ins(%five : f32) outs(%y : tensor<4xf32>) -> tensor<4xf32>
      %v = tensor.extract %x[%c0] : tensor<4xf32>
      %w0 = tensor.extract %w[%c0] : tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %n = linalg.fill ins(%two : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %t1 = arith.addf %t, %v : f32
      %t2 = arith.subf %w0, %five : f32
      %t3 = arith.addf %t1, %t2 : f32
      scf.yield %n, %t3 : tensor<4xf32>, f32
    }
    scf.yield %in#0, %in#1 : tensor<4xf32>, f32
  }
  %p = tensor.from_elements %r#1 : tensor<1xf32>
  %u = tensor.cast %p : tensor<1xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
