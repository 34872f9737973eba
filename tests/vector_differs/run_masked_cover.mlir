// masked_cover.mlir with a @main: mlir-opt 22's pipeline prints the fill's value in the
// masked-off lanes; the program means the input's values there.
func.func @masked_cover(%x: tensor<4xf32>, %v: vector<4xf32>, %s: f32, %m: vector<4xi1>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %h = linalg.fill ins(%s : f32) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  %wx = vector.transfer_write %v, %x[%c0], %m : vector<4xf32>, tensor<4xf32>
  return %wx : tensor<4xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %v = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
  %s = arith.constant 7.0 : f32
  %m = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %r = call @masked_cover(%x, %v, %s, %m) : (tensor<4xf32>, vector<4xf32>, f32, vector<4xi1>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
