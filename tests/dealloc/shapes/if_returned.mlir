// The result of an scf.if choosing between a fresh buffer and the argument is returned.
func.func private @printMemrefF32(memref<*xf32>)
func.func @ret(%c: i1, %in: memref<2xf32>) -> memref<2xf32> {
  %r = scf.if %c -> (memref<2xf32>) {
    %a = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    scf.yield %a : memref<2xf32>
  } else {
    scf.yield %in : memref<2xf32>
  }
  return %r : memref<2xf32>
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  %r1 = call @ret(%t, %b) : (i1, memref<2xf32>) -> memref<2xf32>
  %u1 = memref.cast %r1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %r2 = call @ret(%f, %b) : (i1, memref<2xf32>) -> memref<2xf32>
  %u2 = memref.cast %r2 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
