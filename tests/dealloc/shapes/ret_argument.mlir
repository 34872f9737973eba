// Returning an argument: the caller must get a buffer it owns.
func.func private @printMemrefF32(memref<*xf32>)
func.func @id(%in: memref<2xf32>) -> memref<2xf32> {
  return %in : memref<2xf32>
}
func.func @main() {
  %x = arith.constant 2.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  %r = call @id(%b) : (memref<2xf32>) -> memref<2xf32>
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
