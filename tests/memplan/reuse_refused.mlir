// Buffer reuse must not apply (docs/memory-planning.md) to %a and %b, live at once (the
// add reads both), nor to the loop's temporary %t, which lives in the loop body, a block
// other than %x's. (%x may take %sum's buffer, dead after the extract.) %s = 1 + 2 = 3 after the add; each of the 3 iterations adds 3 to %x[0]: prints
// 3 + 9 = 12 then 3, 3, 3 (the rest of %x).
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<300xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %e2 = tensor.empty() : tensor<300xf32>
  %b = linalg.fill ins(%two : f32) outs(%e2 : tensor<300xf32>) -> tensor<300xf32>
  %e3 = tensor.empty() : tensor<300xf32>
  %sum = linalg.add ins(%a, %b : tensor<300xf32>, tensor<300xf32>) outs(%e3 : tensor<300xf32>) -> tensor<300xf32>
  %s = tensor.extract %sum[%c0] : tensor<300xf32>
  %e4 = tensor.empty() : tensor<300xf32>
  %x = linalg.fill ins(%s : f32) outs(%e4 : tensor<300xf32>) -> tensor<300xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<300xf32>) {
    %et = tensor.empty() : tensor<300xf32>
    %t = linalg.fill ins(%s : f32) outs(%et : tensor<300xf32>) -> tensor<300xf32>
    %t0 = tensor.extract %t[%c0] : tensor<300xf32>
    %x0 = tensor.extract %acc[%c0] : tensor<300xf32>
    %n = arith.addf %x0, %t0 : f32
    %w = tensor.insert %n into %acc[%c0] : tensor<300xf32>
    scf.yield %w : tensor<300xf32>
  }
  %part = tensor.extract_slice %r[0] [4] [1] : tensor<300xf32> to tensor<4xf32>
  %u = tensor.cast %part : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
