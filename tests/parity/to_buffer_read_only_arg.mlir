// A read-only to_buffer of an argument, then a write into the argument and a load
// through the buffer afterwards.
func.func @f(%t: tensor<8xf32>, %v: f32, %i: index) -> (tensor<8xf32>, f32) {
  %m = bufferization.to_buffer %t read_only : tensor<8xf32> to memref<8xf32>
  %w = tensor.insert %v into %t[%i] : tensor<8xf32>
  %x = memref.load %m[%i] : memref<8xf32>
  return %w, %x : tensor<8xf32>, f32
}
