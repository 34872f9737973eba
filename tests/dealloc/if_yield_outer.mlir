func.func private @printMemrefF32(memref<*xf32>)
func.func @choose(%c: i1) -> memref<2xf32> {
  %a = memref.alloc() : memref<2xf32>
  %x = arith.constant 5.0 : f32
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  %r = scf.if %c -> (memref<2xf32>) {
    scf.yield %a : memref<2xf32>
  } else {
    %b = memref.alloc() : memref<2xf32>
    %y = arith.constant 6.0 : f32
    linalg.fill ins(%y : f32) outs(%b : memref<2xf32>)
    scf.yield %b : memref<2xf32>
  }
  return %r : memref<2xf32>
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %m1 = call @choose(%t) : (i1) -> memref<2xf32>
  %u1 = memref.cast %m1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %m2 = call @choose(%f) : (i1) -> memref<2xf32>
  %u2 = memref.cast %m2 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
