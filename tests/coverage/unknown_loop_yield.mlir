// A loop yielding an unknown op's result: mlir-opt writes the next iteration's iter_arg
// in place, into the buffer of a to_buffer of that result (which may be read-only, as an
// arith.constant yielded there is: DESIGN.md's miscompile); bufferlog copies it.
func.func @f(%t: tensor<8xf32>, %v: f32, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<8xf32>) {
    %w = tensor.insert %v into %acc[%i] : tensor<8xf32>
    %u = "foo.step"(%w, %i) : (tensor<8xf32>, index) -> tensor<8xf32>
    scf.yield %u : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
