// The destination is read after materialize_in_destination wrote into it, and the op
// must write in place: the RaW conflict cannot be avoided (mlir-opt rejects it).
func.func @f(%src: tensor<4xf32>, %dst: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %r = bufferization.materialize_in_destination %src in %dst : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %dst[%c0] : tensor<4xf32>
  return %r, %x : tensor<4xf32>, f32
}
