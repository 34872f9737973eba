// scf.if with two memref results: fresh/fresh in one branch, argument/fresh in the other.
func.func private @printMemrefF32(memref<*xf32>)
func.func @two(%c: i1, %in: memref<2xf32>) {
  %r:2 = scf.if %c -> (memref<2xf32>, memref<2xf32>) {
    %a = memref.alloc() : memref<2xf32>
    %b = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    linalg.add ins(%a, %in : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
    scf.yield %a, %b : memref<2xf32>, memref<2xf32>
  } else {
    %e = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%e : memref<2xf32>)
    scf.yield %in, %e : memref<2xf32>, memref<2xf32>
  }
  %u = memref.cast %r#0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %r#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @two(%t, %b) : (i1, memref<2xf32>) -> ()
  call @two(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
