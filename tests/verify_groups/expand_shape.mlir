func.func @f(%t: tensor<8xf32>) -> tensor<2x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [2, 5] : tensor<8xf32> into tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<2x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [3, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// -----
func.func @f(%t: tensor<?xf32>, %n: index) -> tensor<?x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
// -----
func.func @f(%t: tensor<?xf32>, %n: index) -> tensor<?x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [%n, %n] : tensor<?xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
// -----
func.func @f(%t: tensor<?xf32>, %n: index) -> tensor<?x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [2, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<2x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [2] : tensor<8xf32> into tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<2x4xf32> {
  %r = memref.expand_shape %t [[0, 1]] output_shape [2, 5] : memref<8xf32> into memref<2x4xf32>
  return %r : memref<2x4xf32>
}
// -----
func.func @f(%t: tensor<?xf32>, %n: index) -> tensor<?x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [%n, 4, 3] : tensor<?xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>, %n: index) -> tensor<2x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [%n, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// -----
func.func @f(%t: tensor<?xf32>, %n: index) -> tensor<?x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [%n, 5] : tensor<?xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
// -----
func.func @f(%t: memref<8xf32>, %n: index) -> memref<2x4xf32> {
  %r = memref.expand_shape %t [[0, 1]] output_shape [%n, 4] : memref<8xf32> into memref<2x4xf32>
  return %r : memref<2x4xf32>
}
// -----
func.func @f(%t: memref<?xf32>, %n: index) -> memref<?x4xf32> {
  %r = memref.expand_shape %t [[0, 1]] output_shape [%n, 5] : memref<?xf32> into memref<?x4xf32>
  return %r : memref<?x4xf32>
}
// -----
func.func @f(%t: memref<?xf32>, %n: index) -> memref<?x4xf32> {
  %r = memref.expand_shape %t [[0, 1]] output_shape [3, 4] : memref<?xf32> into memref<?x4xf32>
  return %r : memref<?x4xf32>
}
// -----
func.func @f(%t: tensor<?xf32>, %n: index) -> tensor<?x4xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [3, 4] : tensor<?xf32> into tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
