func.func @f(%t: tensor<4x4xf32>, %v: f32) -> tensor<6x7xf32> {
  %r = tensor.pad %t low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
// -----
func.func @f(%t: tensor<4x4xf32>, %v: f32, %n: index) -> tensor<?x6xf32> {
  %r = tensor.pad %t low[%n, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<?x6xf32>
  return %r : tensor<?x6xf32>
}
// -----
func.func @f(%t: tensor<4x4xf32>, %v: f32, %n: index) -> tensor<6x6xf32> {
  %r = tensor.pad %t low[%n, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %r : tensor<6x6xf32>
}
// -----
func.func @f(%t: tensor<?x4xf32>, %v: f32) -> tensor<6x6xf32> {
  %r = tensor.pad %t low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x4xf32> to tensor<6x6xf32>
  return %r : tensor<6x6xf32>
}
// -----
func.func @f(%t: tensor<4x4xf32>, %v: f32) -> tensor<6xf32> {
  %r = tensor.pad %t low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6xf32>
  return %r : tensor<6xf32>
}
// -----
func.func @f(%t: tensor<4x4xf32>, %v: f32) -> tensor<6x6xf32> {
  %r = tensor.pad %t low[1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %r : tensor<6x6xf32>
}
// -----
func.func @f(%t: tensor<4x4xf32>, %v: f32) -> tensor<6x6xi32> {
  %r = tensor.pad %t low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x6xi32>
  return %r : tensor<6x6xi32>
}
// -----
func.func @f(%t: tensor<4x4xf32>, %v: f32) -> tensor<2x6xf32> {
  %r = tensor.pad %t low[-1, 1] high[-1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<2x6xf32>
  return %r : tensor<2x6xf32>
}
// -----
func.func @f(%t: tensor<4x4xf32>, %v: f32) -> tensor<6x6xf32> {
  %r = tensor.pad %t nofold low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %r : tensor<6x6xf32>
}
