// An external function declared to only read its argument: the call's operand stays in
// place and the argument keeps its value for the insert after the call.
func.func private @ext(tensor<4xf32> {bufferization.access = "read"}) -> tensor<4xf32>
func.func private @ext_any(tensor<4xf32>) -> tensor<4xf32>

func.func @f(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %a = func.call @ext(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @ext_any(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %w = tensor.insert %v into %t[%c0] : tensor<4xf32>
  return %a, %b, %w : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
