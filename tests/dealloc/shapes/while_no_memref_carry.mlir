// scf.while carrying only an index; both regions allocate temporaries.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %out = memref.alloc() : memref<2xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<2xf32>)
  %r = scf.while (%k = %c0) : (index) -> index {
    %t = memref.alloc() : memref<2xf32>
    linalg.add ins(%out, %out : memref<2xf32>, memref<2xf32>) outs(%t : memref<2xf32>)
    %go = arith.cmpi slt, %k, %c2 : index
    scf.condition(%go) %k : index
  } do {
  ^bb0(%k2: index):
    %t2 = memref.alloc() : memref<2xf32>
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%t2 : memref<2xf32>)
    linalg.add ins(%out, %t2 : memref<2xf32>, memref<2xf32>) outs(%out : memref<2xf32>)
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %k3 : index
  }
  %u = memref.cast %out : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
