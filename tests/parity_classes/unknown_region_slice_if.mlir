// one-shot: bufferize-function-boundaries allow-unknown-ops
// Inside an unknown op's region: a write into a slice of its argument, and into an
// scf.if that yields the argument or a fresh tensor: both copy.
func.func @f(%t: tensor<8xf32>, %v: f32, %c: i1) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %u = "foo.wrap"(%t) ({
  ^bb0(%x: tensor<8xf32>):
    %s = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %w = tensor.insert %v into %s[%c0] : tensor<4xf32>
    %y = scf.if %c -> tensor<8xf32> {
      scf.yield %x : tensor<8xf32>
    } else {
      %e = tensor.empty() : tensor<8xf32>
      scf.yield %e : tensor<8xf32>
    }
    %z = tensor.insert %v into %y[%c0] : tensor<8xf32>
    %q = tensor.insert_slice %w into %z[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
    "foo.yield"(%q) : (tensor<8xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %u : tensor<8xf32>
}
