// The input frees its buffer itself on one side of a diamond and uses it on the other.
func.func private @printMemrefF32(memref<*xf32>)
func.func @maybe_free(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  memref.dealloc %a : memref<2xf32>
  cf.br ^bb3
^bb2:
  %b = memref.alloc() : memref<2xf32>
  linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
  %v = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  cf.br ^bb3
^bb3:
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 2.0 : f32
  call @maybe_free(%t, %x) : (i1, f32) -> ()
  call @maybe_free(%f, %x) : (i1, f32) -> ()
  return
}
