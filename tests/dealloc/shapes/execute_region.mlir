// scf.execute_region yielding a fresh buffer, and one yielding the argument.
func.func private @printMemrefF32(memref<*xf32>)
func.func @exec(%in: memref<2xf32>) {
  %r = scf.execute_region -> memref<2xf32> {
    %a = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    scf.yield %a : memref<2xf32>
  }
  %s = scf.execute_region -> memref<2xf32> {
    scf.yield %in : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %s : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @exec(%b) : (memref<2xf32>) -> ()
  return
}
