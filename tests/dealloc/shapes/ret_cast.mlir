// Returning a memref.cast of a fresh buffer to a dynamic shape.
func.func private @printMemrefF32(memref<*xf32>)
func.func @dyn(%x: f32) -> memref<?xf32> {
  %a = memref.alloc() : memref<3xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<3xf32>)
  %c = memref.cast %a : memref<3xf32> to memref<?xf32>
  return %c : memref<?xf32>
}
func.func @main() {
  %x = arith.constant 2.0 : f32
  %r = call @dyn(%x) : (f32) -> memref<?xf32>
  %u = memref.cast %r : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
