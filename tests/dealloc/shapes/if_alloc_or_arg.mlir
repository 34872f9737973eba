// scf.if yielding a fresh buffer in one branch and the argument in the other.
func.func private @printMemrefF32(memref<*xf32>)
func.func @pick(%c: i1, %in: memref<2xf32>) {
  %r = scf.if %c -> (memref<2xf32>) {
    %a = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    scf.yield %a : memref<2xf32>
  } else {
    scf.yield %in : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.25 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @pick(%t, %b) : (i1, memref<2xf32>) -> ()
  call @pick(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
