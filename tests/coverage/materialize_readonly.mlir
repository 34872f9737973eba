// materialize_in_destination into a read-only argument: the write cannot be avoided.
func.func @f(%src: tensor<4xf32>, %dst: tensor<4xf32> {bufferization.writable = false}) -> tensor<4xf32> {
  %r = bufferization.materialize_in_destination %src in %dst : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
