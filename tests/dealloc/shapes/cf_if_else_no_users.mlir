// Diamond forwarding the allocation on both sides; the join never uses it.
func.func private @printMemrefF32(memref<*xf32>)
func.func @nouse(%c: i1, %in: memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
  cf.cond_br %c, ^bb1(%in, %a : memref<2xf32>, memref<2xf32>), ^bb2(%a, %in : memref<2xf32>, memref<2xf32>)
^bb1(%x1: memref<2xf32>, %y1: memref<2xf32>):
  cf.br ^bb3(%x1, %y1 : memref<2xf32>, memref<2xf32>)
^bb2(%x2: memref<2xf32>, %y2: memref<2xf32>):
  cf.br ^bb3(%x2, %y2 : memref<2xf32>, memref<2xf32>)
^bb3(%x: memref<2xf32>, %y: memref<2xf32>):
  %u = memref.cast %in : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @nouse(%t, %b) : (i1, memref<2xf32>) -> ()
  call @nouse(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
