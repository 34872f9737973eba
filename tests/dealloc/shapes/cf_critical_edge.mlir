// The edge bb0 -> bb2 is critical: bb2 receives the argument or bb1's allocation.
func.func private @printMemrefF32(memref<*xf32>)
func.func @crit(%c: i1, %in: memref<2xf32>) {
  cf.cond_br %c, ^bb1, ^bb2(%in : memref<2xf32>)
^bb1:
  %a = memref.alloc() : memref<2xf32>
  linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
  cf.br ^bb2(%a : memref<2xf32>)
^bb2(%m: memref<2xf32>):
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.5 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @crit(%t, %b) : (i1, memref<2xf32>) -> ()
  call @crit(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
