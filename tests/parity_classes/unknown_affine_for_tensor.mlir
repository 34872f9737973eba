// one-shot: bufferize-function-boundaries allow-unknown-ops
// affine.for carrying a tensor has no bufferization semantics in mlir-opt: an unknown
// op whose iteration argument is not writable; the write inside copies.
func.func @f(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %r = affine.for %i = 0 to 4 iter_args(%a = %t) -> (tensor<4xf32>) {
    %w = tensor.insert %v into %a[%i] : tensor<4xf32>
    affine.yield %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
