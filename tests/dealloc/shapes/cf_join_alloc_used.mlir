// Diamond where both sides use the entry allocation and the join allocates and reads it.
func.func private @printMemrefF32(memref<*xf32>)
func.func @diamond(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
  cf.br ^bb3
^bb2:
  linalg.mul ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
  cf.br ^bb3
^bb3:
  %b = memref.alloc() : memref<2xf32>
  linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
  %u = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 3.0 : f32
  call @diamond(%t, %x) : (i1, f32) -> ()
  call @diamond(%f, %x) : (i1, f32) -> ()
  return
}
