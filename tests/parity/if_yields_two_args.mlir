// scf.if yielding a different argument in each branch, its result written; one argument
// read after.
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: i1, %v: f32, %i: index) -> (tensor<8xf32>, f32) {
  %r = scf.if %c -> tensor<8xf32> {
    scf.yield %a : tensor<8xf32>
  } else {
    scf.yield %b : tensor<8xf32>
  }
  %w = tensor.insert %v into %r[%i] : tensor<8xf32>
  %e = tensor.extract %a[%i] : tensor<8xf32>
  return %w, %e : tensor<8xf32>, f32
}
