// The allocation is made before the split; bb2 receives it through bb1 or the argument
// directly.
func.func private @printMemrefF32(memref<*xf32>)
func.func @inv(%c: i1, %in: memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
  cf.cond_br %c, ^bb1, ^bb2(%in : memref<2xf32>)
^bb1:
  cf.br ^bb2(%a : memref<2xf32>)
^bb2(%m: memref<2xf32>):
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 2.5 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @inv(%t, %b) : (i1, memref<2xf32>) -> ()
  call @inv(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
