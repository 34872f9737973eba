// The loop yields a write into its init value rather than into its iter_arg: the
// result is not equivalent to the iter_arg.
func.func @f(%t: tensor<8xf32>, %v: f32, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%x = %t) -> tensor<8xf32> {
    %w = tensor.insert %v into %t[%k] : tensor<8xf32>
    scf.yield %w : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
