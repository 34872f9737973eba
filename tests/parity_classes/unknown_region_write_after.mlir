// one-shot: bufferize-function-boundaries allow-unknown-ops
// An unknown op reads its region argument; the function writes the operand after it.
func.func @f(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  "foo.visit"(%t) ({
  ^bb0(%x: tensor<4xf32>):
    %e = tensor.extract %x[%c0] : tensor<4xf32>
    "foo.use"(%e) : (f32) -> ()
    "foo.end"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  %w = tensor.insert %v into %t[%c0] : tensor<4xf32>
  return %w : tensor<4xf32>
}
