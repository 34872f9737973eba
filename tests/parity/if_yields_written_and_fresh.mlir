// One branch writes the argument, the other yields a fresh fill; the result is written.
func.func @f(%a: tensor<8xf32>, %c: i1, %v: f32, %i: index) -> tensor<8xf32> {
  %r = scf.if %c -> tensor<8xf32> {
    %x = tensor.insert %v into %a[%i] : tensor<8xf32>
    scf.yield %x : tensor<8xf32>
  } else {
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %f : tensor<8xf32>
  }
  %w = tensor.insert %v into %r[%i] : tensor<8xf32>
  return %w : tensor<8xf32>
}
