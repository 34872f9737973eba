// one-shot: bufferize-function-boundaries allow-unknown-ops
// An unknown op hands its region argument to an scf.for that writes its iteration
// argument: the loop's init goes out of place (the argument is not writable).
func.func @f(%t: tensor<4xf32>, %v: f32, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %u = "foo.wrap"(%t) ({
  ^bb0(%x: tensor<4xf32>):
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
      %w = tensor.insert %v into %a[%i] : tensor<4xf32>
      scf.yield %w : tensor<4xf32>
    }
    "foo.yield"(%r) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %u : tensor<4xf32>
}
