// An existing bufferization.dealloc frees one buffer under a condition; another buffer
// is left to the pass.
func.func private @printMemrefF32(memref<*xf32>)
func.func @cond_free(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
  %u = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %t = arith.constant true
  bufferization.dealloc (%a : memref<2xf32>) if (%t)
  return
}
func.func @main() {
  %t = arith.constant true
  %x = arith.constant 2.0 : f32
  call @cond_free(%t, %x) : (i1, f32) -> ()
  return
}
