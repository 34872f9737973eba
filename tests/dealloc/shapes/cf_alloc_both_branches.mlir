// Each side of a diamond allocates its own buffer and passes it to the join.
func.func private @printMemrefF32(memref<*xf32>)
func.func @both(%c: i1, %x: f32) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  cf.br ^bb3(%a : memref<2xf32>)
^bb2:
  %b = memref.alloc() : memref<2xf32>
  %y = arith.addf %x, %x : f32
  linalg.fill ins(%y : f32) outs(%b : memref<2xf32>)
  cf.br ^bb3(%b : memref<2xf32>)
^bb3(%m: memref<2xf32>):
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 4.0 : f32
  call @both(%t, %x) : (i1, f32) -> ()
  call @both(%f, %x) : (i1, f32) -> ()
  return
}
