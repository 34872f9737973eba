// A payload function and the transform script a test of MLIR's bufferization would drive
// it with; bufferlog bufferizes the payload and carries the script through unchanged.
module attributes {transform.with_named_sequence} {
  func.func @payload(%t: tensor<8xf32>, %v: f32, %i: index) -> (tensor<8xf32>, f32) {
    %w = tensor.insert %v into %t[%i] : tensor<8xf32>
    %r = tensor.extract %t[%i] : tensor<8xf32>
    return %w, %r : tensor<8xf32>, f32
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // find the functions, then bufferize them; } in a comment and "}" in a string
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.print %f {name = "matched } {"} : !transform.any_op
    %b = transform.bufferization.one_shot_bufferize %f {bufferize_function_boundaries = true} : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }

  transform.named_sequence @helper(%h: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %h : !transform.any_op
  }

  transform.named_sequence private @external(!transform.any_op {transform.readonly})
}
