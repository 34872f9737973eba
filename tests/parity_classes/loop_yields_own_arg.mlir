// A loop that yields its own iteration argument on one path and a written copy on the
// other, and a loop that yields the argument unchanged: the result is the init's buffer.
func.func @f(%t: tensor<8xf32>, %u: tensor<8xf32>, %n: index, %v: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
    %small = arith.cmpi ult, %i, %c4 : index
    %y = scf.if %small -> tensor<8xf32> {
      scf.yield %a : tensor<8xf32>
    } else {
      %w = tensor.insert %v into %a[%i] : tensor<8xf32>
      scf.yield %w : tensor<8xf32>
    }
    scf.yield %y : tensor<8xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%b = %u) -> (tensor<8xf32>) {
    scf.yield %b : tensor<8xf32>
  }
  %x = tensor.extract %u[%c0] : tensor<8xf32>
  %w2 = tensor.insert %x into %s[%c1] : tensor<8xf32>
  return %r, %w2 : tensor<8xf32>, tensor<8xf32>
}
