// Nested scf.if: the inner one yields a fresh buffer or an allocation of the outer
// branch, the outer one yields that or the argument.
func.func private @printMemrefF32(memref<*xf32>)
func.func @nest(%c: i1, %d: i1, %in: memref<2xf32>) {
  %r = scf.if %c -> (memref<2xf32>) {
    %a = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    %s = scf.if %d -> (memref<2xf32>) {
      %b = memref.alloc() : memref<2xf32>
      linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
      scf.yield %b : memref<2xf32>
    } else {
      scf.yield %a : memref<2xf32>
    }
    scf.yield %s : memref<2xf32>
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
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @nest(%t, %t, %b) : (i1, i1, memref<2xf32>) -> ()
  call @nest(%t, %f, %b) : (i1, i1, memref<2xf32>) -> ()
  call @nest(%f, %f, %b) : (i1, i1, memref<2xf32>) -> ()
  return
}
