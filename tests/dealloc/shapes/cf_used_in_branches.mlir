// An allocation used on both sides of a diamond but never forwarded.
func.func private @printMemrefF32(memref<*xf32>)
func.func @use(%c: i1, %in: memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
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
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @use(%t, %b) : (i1, memref<2xf32>) -> ()
  call @use(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
