// scf.while whose before region allocates the buffer the condition forwards.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r:2 = scf.while (%m = %init, %k = %c0) : (memref<2xf32>, index) -> (memref<2xf32>, index) {
    %d = memref.alloc() : memref<2xf32>
    linalg.add ins(%m, %m : memref<2xf32>, memref<2xf32>) outs(%d : memref<2xf32>)
    %go = arith.cmpi slt, %k, %c3 : index
    scf.condition(%go) %d, %k : memref<2xf32>, index
  } do {
  ^bb0(%m2: memref<2xf32>, %k2: index):
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %m2, %k3 : memref<2xf32>, index
  }
  %u = memref.cast %r#0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
