// Buffer reuse (docs/memory-planning.md): three temporaries of one type, each dead
// before the next is made, share one buffer. %a = 1, %b = %a[0] + %a[1] = 2, %c = %b[0]
// * %b[3] = 4: prints eight 4s, with one heap allocation instead of three.
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<300xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<300xf32>) -> tensor<300xf32>
  %a0 = tensor.extract %a[%c0] : tensor<300xf32>
  %a1 = tensor.extract %a[%c1] : tensor<300xf32>
  %s = arith.addf %a0, %a1 : f32
  %e2 = tensor.empty() : tensor<300xf32>
  %b = linalg.fill ins(%s : f32) outs(%e2 : tensor<300xf32>) -> tensor<300xf32>
  %b0 = tensor.extract %b[%c0] : tensor<300xf32>
  %b3 = tensor.extract %b[%c3] : tensor<300xf32>
  %p = arith.mulf %b0, %b3 : f32
  %e3 = tensor.empty() : tensor<300xf32>
  %c = linalg.fill ins(%p : f32) outs(%e3 : tensor<300xf32>) -> tensor<300xf32>
  %part = tensor.extract_slice %c[0] [8] [1] : tensor<300xf32> to tensor<8xf32>
  %u = tensor.cast %part : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
