func.func private @printMemrefF32(memref<*xf32>)
// A top-level while whose after region alternates between a fresh buffer and an outer
// one (borrowed, still used after the loop), and two buffers swapped every iteration.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %o = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%o : memref<2xf32>)
  %p = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%p : memref<2xf32>)
  %w:3 = scf.while (%x = %o, %y = %p, %k = %c0) : (memref<2xf32>, memref<2xf32>, index) -> (memref<2xf32>, memref<2xf32>, index) {
    %go = arith.cmpi slt, %k, %c5 : index
    scf.condition(%go) %y, %x, %k : memref<2xf32>, memref<2xf32>, index
  } do {
  ^bb0(%x2: memref<2xf32>, %y2: memref<2xf32>, %k2: index):
    %rem = arith.remui %k2, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %n = scf.if %even -> (memref<2xf32>) {
      %t = memref.alloc() : memref<2xf32>
      linalg.add ins(%x2, %y2 : memref<2xf32>, memref<2xf32>) outs(%t : memref<2xf32>)
      scf.yield %t : memref<2xf32>
    } else {
      scf.yield %o : memref<2xf32>
    }
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %n, %x2, %k3 : memref<2xf32>, memref<2xf32>, index
  }
  %u0 = memref.cast %w#0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %u1 = memref.cast %w#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %uo = memref.cast %o : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
  return
}
