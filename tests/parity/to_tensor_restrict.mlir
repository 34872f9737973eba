// A to_tensor of a fresh buffer (restrict, writable) written in place.
func.func @f(%v: f32, %i: index) -> tensor<8xf32> {
  %m = memref.alloc() : memref<8xf32>
  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> to tensor<8xf32>
  %w = tensor.insert %v into %t[%i] : tensor<8xf32>
  return %w : tensor<8xf32>
}
