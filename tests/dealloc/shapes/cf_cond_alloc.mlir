// bb0 branches to bb2 with an argument, or to bb1 which allocates and joins bb2.
func.func private @printMemrefF32(memref<*xf32>)
func.func @cond(%c: i1, %in: memref<2xf32>) {
  cf.cond_br %c, ^bb2(%in : memref<2xf32>), ^bb1
^bb1:
  %a = memref.alloc() : memref<2xf32>
  memref.copy %in, %a : memref<2xf32> to memref<2xf32>
  cf.br ^bb2(%a : memref<2xf32>)
^bb2(%m: memref<2xf32>):
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 3.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @cond(%t, %b) : (i1, memref<2xf32>) -> ()
  call @cond(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
