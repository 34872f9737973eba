// An allocation made at the entry but used only in one successor.
func.func private @printMemrefF32(memref<*xf32>)
func.func @later(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  cf.br ^bb2
^bb2:
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 8.0 : f32
  call @later(%t, %x) : (i1, f32) -> ()
  call @later(%f, %x) : (i1, f32) -> ()
  return
}
