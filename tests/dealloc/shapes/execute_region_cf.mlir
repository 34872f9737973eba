// scf.execute_region with two blocks: the result is a fresh buffer or the argument.
func.func private @printMemrefF32(memref<*xf32>)
func.func @exec(%c: i1, %in: memref<2xf32>) {
  %r = scf.execute_region -> memref<2xf32> {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %a = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    scf.yield %a : memref<2xf32>
  ^bb2:
    scf.yield %in : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @exec(%t, %b) : (i1, memref<2xf32>) -> ()
  call @exec(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
