// An allocation made after the first split flows through two joins, one of which also
// receives the argument.
func.func private @printMemrefF32(memref<*xf32>)
func.func @nested(%c: i1, %d: i1, %in: memref<3xf32>) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb6(%in : memref<3xf32>)
^bb2:
  %a = memref.alloc() : memref<3xf32>
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%two : f32) outs(%a : memref<3xf32>)
  cf.cond_br %d, ^bb3, ^bb4
^bb3:
  cf.br ^bb5(%a : memref<3xf32>)
^bb4:
  cf.br ^bb5(%a : memref<3xf32>)
^bb5(%p: memref<3xf32>):
  cf.br ^bb6(%p : memref<3xf32>)
^bb6(%q: memref<3xf32>):
  cf.br ^bb7(%q : memref<3xf32>)
^bb7(%r: memref<3xf32>):
  %u = memref.cast %r : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 9.0 : f32
  %b = memref.alloca() : memref<3xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<3xf32>)
  call @nested(%t, %t, %b) : (i1, i1, memref<3xf32>) -> ()
  call @nested(%f, %t, %b) : (i1, i1, memref<3xf32>) -> ()
  call @nested(%f, %f, %b) : (i1, i1, memref<3xf32>) -> ()
  return
}
