// one-shot: bufferize-function-boundaries allow-unknown-ops
// An unknown op with a region and a tensor operand but no tensor result, its operand not
// read afterwards: the operand aliases the region's argument, which is not writable, so
// the operand (read and written by the unknown op) goes out of place.
func.func @f(%t: tensor<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  "foo.visit"(%t) ({
  ^bb0(%x: tensor<4xf32>):
    %e = tensor.extract %x[%c0] : tensor<4xf32>
    "foo.use"(%e) : (f32) -> ()
    "foo.end"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  return
}
