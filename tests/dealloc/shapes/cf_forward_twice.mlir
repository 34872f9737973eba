// One allocation forwarded twice on the same edge.
func.func private @printMemrefF32(memref<*xf32>)
func.func @twice(%x: f32) {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  cf.br ^bb1(%a, %a : memref<2xf32>, memref<2xf32>)
^bb1(%p: memref<2xf32>, %q: memref<2xf32>):
  %b = memref.alloc() : memref<2xf32>
  linalg.add ins(%p, %q : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
  %v = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %x = arith.constant 1.0 : f32
  call @twice(%x) : (f32) -> ()
  return
}
