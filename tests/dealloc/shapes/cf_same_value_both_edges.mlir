// cond_br passing one allocation to both successors.
func.func private @printMemrefF32(memref<*xf32>)
func.func @same(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  cf.cond_br %c, ^bb1(%a : memref<2xf32>), ^bb2(%a : memref<2xf32>)
^bb1(%p: memref<2xf32>):
  %u = memref.cast %p : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
^bb2(%q: memref<2xf32>):
  %b = memref.alloc() : memref<2xf32>
  linalg.add ins(%q, %q : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
  %v = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  call @same(%t, %x) : (i1, f32) -> ()
  call @same(%f, %x) : (i1, f32) -> ()
  return
}
