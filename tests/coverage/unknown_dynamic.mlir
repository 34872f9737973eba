// Dynamically shaped tensors crossing unknown ops: a result copied into a loop that
// writes it, an unknown op reading the loop's iter_arg, a result yielded by scf.if.
func.func @f(%t: tensor<?xf32>, %n: index, %c: i1) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %u = "foo.op"(%t) : (tensor<?xf32>) -> tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %u) -> (tensor<?xf32>) {
    %x = tensor.extract %acc[%i] : tensor<?xf32>
    %v = "foo.scalar"(%acc, %x) : (tensor<?xf32>, f32) -> f32
    %w = tensor.insert %v into %acc[%i] : tensor<?xf32>
    scf.yield %w : tensor<?xf32>
  }
  %s = scf.if %c -> tensor<?xf32> {
    scf.yield %u : tensor<?xf32>
  } else {
    scf.yield %t : tensor<?xf32>
  }
  return %r, %s : tensor<?xf32>, tensor<?xf32>
}
