// row_cover.mlir with a @main: mlir-opt 22's pipeline prints row 1 as [7, 7, 7, 7]; the
// program means [5, 6, 7, 8].
func.func @row_cover(%x: tensor<2x4xf32>, %v: vector<4xf32>, %s: f32) -> tensor<2x4xf32> {
  %c0 = arith.constant 0 : index
  %h = linalg.fill ins(%s : f32) outs(%x : tensor<2x4xf32>) -> tensor<2x4xf32>
  %w = vector.transfer_write %v, %x[%c0, %c0] : vector<4xf32>, tensor<2x4xf32>
  return %w : tensor<2x4xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %v = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
  %s = arith.constant 7.0 : f32
  %r = call @row_cover(%x, %v, %s) : (tensor<2x4xf32>, vector<4xf32>, f32) -> tensor<2x4xf32>
  %u = tensor.cast %r : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
