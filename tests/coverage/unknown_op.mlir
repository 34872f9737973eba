// An op without bufferization semantics between two bufferized ops: its operand
// becomes a to_tensor of the fill's buffer, its result a to_buffer before the insert.
func.func @f(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %u = "foo.foo"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert %v into %u[%c0] : tensor<4xf32>
  return %r : tensor<4xf32>
}
