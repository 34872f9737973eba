func.func private @printMemrefF32(memref<*xf32>)
// A while nested in an scf.if: the before region allocates the next buffer and the
// condition forwards it; the else branch yields the outer buffer that the while borrows.
func.func @pick(%c: i1, %lim: index) -> memref<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%three : f32) outs(%a : memref<2xf32>)
  %r = scf.if %c -> (memref<2xf32>) {
    %w:2 = scf.while (%x = %a, %k = %c0) : (memref<2xf32>, index) -> (memref<2xf32>, index) {
      %d = memref.alloc() : memref<2xf32>
      linalg.add ins(%x, %x : memref<2xf32>, memref<2xf32>) outs(%d : memref<2xf32>)
      %go = arith.cmpi slt, %k, %lim : index
      scf.condition(%go) %d, %k : memref<2xf32>, index
    } do {
    ^bb0(%y: memref<2xf32>, %k2: index):
      %k3 = arith.addi %k2, %c1 : index
      scf.yield %y, %k3 : memref<2xf32>, index
    }
    scf.yield %w#0 : memref<2xf32>
  } else {
    scf.yield %a : memref<2xf32>
  }
  return %r : memref<2xf32>
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %m1 = call @pick(%t, %c2) : (i1, index) -> memref<2xf32>
  %u1 = memref.cast %m1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %m2 = call @pick(%f, %c2) : (i1, index) -> memref<2xf32>
  %u2 = memref.cast %m2 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %m3 = call @pick(%t, %c0) : (i1, index) -> memref<2xf32>
  %u3 = memref.cast %m3 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  return
}
