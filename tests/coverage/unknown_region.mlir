// An unknown op with a region: its block argument is not writable (the insert inside
// copies), its operand and results cross through to_tensor / to_buffer.
func.func @f(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %u = "foo.wrap"(%t) ({
  ^bb0(%x: tensor<4xf32>):
    %y = tensor.insert %v into %x[%c0] : tensor<4xf32>
    %z = "foo.foo"(%y) : (tensor<4xf32>) -> tensor<4xf32>
    "foo.yield"(%z) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.extract %u[%c0] : tensor<4xf32>
  %r = tensor.insert %e into %t[%c0] : tensor<4xf32>
  return %r, %e : tensor<4xf32>, f32
}
