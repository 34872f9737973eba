// An existing clone the input frees itself, and one it never uses (dead).
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  %b = bufferization.clone %a : memref<2xf32> to memref<2xf32>
  %u = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %b : memref<2xf32>
  %d = bufferization.clone %a : memref<2xf32> to memref<2xf32>
  memref.dealloc %d : memref<2xf32>
  return
}
