func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %x = arith.constant 2.0 : f32
  %a = "test.new_buffer"() : () -> memref<4xf32>
  "test.fill"(%x, %a) : (f32, memref<4xf32>) -> ()
  %w = "test.window"(%a) : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>>
  %b = memref.alloc() : memref<2xf32>
  "test.copy"(%w, %b) : (memref<2xf32, strided<[1], offset: 1>>, memref<2xf32>) -> ()
  %t = "test.new_buffer"() : () -> memref<4xf32>
  "test.copy"(%a, %t) : (memref<4xf32>, memref<4xf32>) -> ()
  "test.release"(%t) : (memref<4xf32>) -> ()
  %u = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
