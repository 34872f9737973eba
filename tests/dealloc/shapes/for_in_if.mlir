// An scf.if whose then-branch runs a loop over a fresh buffer.
func.func private @printMemrefF32(memref<*xf32>)
func.func @maybe(%c: i1, %in: memref<2xf32>) -> memref<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.if %c -> (memref<2xf32>) {
    %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %in) -> (memref<2xf32>) {
      %n = memref.alloc() : memref<2xf32>
      linalg.add ins(%acc, %in : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
      scf.yield %n : memref<2xf32>
    }
    scf.yield %l : memref<2xf32>
  } else {
    %a = memref.alloc() : memref<2xf32>
    memref.copy %in, %a : memref<2xf32> to memref<2xf32>
    scf.yield %a : memref<2xf32>
  }
  return %r : memref<2xf32>
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  %r1 = call @maybe(%t, %b) : (i1, memref<2xf32>) -> memref<2xf32>
  %u1 = memref.cast %r1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %r2 = call @maybe(%f, %b) : (i1, memref<2xf32>) -> memref<2xf32>
  %u2 = memref.cast %r2 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
