// docs/memory-planning.md: a loop temporary, a buffer dead after one read, and two
// buffers that live at once at the end.
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> (tensor<512xf32>) {
    %t0 = tensor.empty() : tensor<512xf32>
    %t = linalg.add ins(%acc, %acc : tensor<512xf32>, tensor<512xf32>) outs(%t0 : tensor<512xf32>) -> tensor<512xf32>
    %s = linalg.add ins(%t, %acc : tensor<512xf32>, tensor<512xf32>) outs(%acc : tensor<512xf32>) -> tensor<512xf32>
    scf.yield %s : tensor<512xf32>
  }
  %x = tensor.extract %r[%c0] : tensor<512xf32>
  %e2 = tensor.empty() : tensor<512xf32>
  %b = linalg.fill ins(%x : f32) outs(%e2 : tensor<512xf32>) -> tensor<512xf32>
  %e3 = tensor.empty() : tensor<512xf32>
  %c = linalg.add ins(%b, %b : tensor<512xf32>, tensor<512xf32>) outs(%e3 : tensor<512xf32>) -> tensor<512xf32>
  %u = tensor.cast %c : tensor<512xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
