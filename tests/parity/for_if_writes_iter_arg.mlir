// An scf.if inside a loop writes the iter_arg in one branch and yields it unchanged in
// the other; the init is read after the loop.
func.func @f(%t: tensor<8xf32>, %v: f32, %n: index) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%x = %t) -> tensor<8xf32> {
    %rem = arith.remui %k, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %y = scf.if %even -> tensor<8xf32> {
      %w = tensor.insert %v into %x[%k] : tensor<8xf32>
      scf.yield %w : tensor<8xf32>
    } else {
      scf.yield %x : tensor<8xf32>
    }
    scf.yield %y : tensor<8xf32>
  }
  %e = tensor.extract %t[%c1] : tensor<8xf32>
  return %r, %e : tensor<8xf32>, f32
}
