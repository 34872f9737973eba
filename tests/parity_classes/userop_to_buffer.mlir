// rules: examples/memrules
// A test op fills the buffer of a tensor taken with to_buffer (a write through it), and a
// window of it is copied out; the tensor is read again after: the to_buffer goes out of
// place, the read-only one stays in place.
func.func @f(%t: tensor<4xf32>, %x: f32) -> (f32, memref<2xf32>) {
  %c1 = arith.constant 1 : index
  %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  "test.fill"(%x, %m) : (f32, memref<4xf32>) -> ()
  %r = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %w = "test.window"(%r) : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>>
  %b = memref.alloc() : memref<2xf32>
  "test.copy"(%w, %b) : (memref<2xf32, strided<[1], offset: 1>>, memref<2xf32>) -> ()
  %e = tensor.extract %t[%c1] : tensor<4xf32>
  return %e, %b : f32, memref<2xf32>
}
