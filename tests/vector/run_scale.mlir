// Read a vector at offset 4, scale it, write it back at offset 0; the input is printed
// after the call, so the write goes to a copy.
func.func @scale(%t: tensor<8xf32>, %k: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %t[%c4], %pad {in_bounds = [true]} : tensor<8xf32>, vector<4xf32>
  %b = vector.broadcast %k : f32 to vector<4xf32>
  %y = arith.mulf %v, %b : vector<4xf32>
  %w = vector.transfer_write %y, %t[%c0] {in_bounds = [true]} : vector<4xf32>, tensor<8xf32>
  %e = vector.extract %y[1] : f32 from vector<4xf32>
  vector.print %e : f32
  vector.print %y : vector<4xf32>
  return %w : tensor<8xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %k = arith.constant 3.0 : f32
  %r = call @scale(%t, %k) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %t : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
