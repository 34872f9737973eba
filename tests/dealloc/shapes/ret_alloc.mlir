// Returning a fresh buffer, and a function that drops one of two calls' results.
func.func private @printMemrefF32(memref<*xf32>)
func.func @make(%x: f32) -> memref<2xf32> {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  return %a : memref<2xf32>
}
func.func @main() {
  %x = arith.constant 2.0 : f32
  %a = call @make(%x) : (f32) -> memref<2xf32>
  %b = call @make(%x) : (f32) -> memref<2xf32>
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
