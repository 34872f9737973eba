func.func private @printMemrefF32(memref<*xf32>)
func.func @pick(%c: i1, %x: f32) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<4xf32>)
  cf.br ^bb3(%b : memref<4xf32>)
^bb2:
  %y = arith.addf %x, %x : f32
  linalg.fill ins(%y : f32) outs(%a : memref<4xf32>)
  cf.br ^bb3(%a : memref<4xf32>)
^bb3(%r: memref<4xf32>):
  %o = memref.alloc() : memref<4xf32>
  memref.copy %r, %o : memref<4xf32> to memref<4xf32>
  return %o : memref<4xf32>
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.5 : f32
  %m1 = call @pick(%t, %x) : (i1, f32) -> memref<4xf32>
  %u1 = memref.cast %m1 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %m2 = call @pick(%f, %x) : (i1, f32) -> memref<4xf32>
  %u2 = memref.cast %m2 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
