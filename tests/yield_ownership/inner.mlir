func.func @f(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<4xf32>) {
    %q = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> (tensor<4xf32>) {
      %w = tensor.insert %one into %b[%j] : tensor<4xf32>
      scf.yield %w : tensor<4xf32>
    }
    scf.yield %q : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
