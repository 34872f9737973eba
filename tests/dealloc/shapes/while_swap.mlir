// scf.while swapping two buffers through its condition, with a fresh one each iteration.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<2xf32>)
  %r:3 = scf.while (%x = %a, %y = %b, %k = %c0) : (memref<2xf32>, memref<2xf32>, index) -> (memref<2xf32>, memref<2xf32>, index) {
    %go = arith.cmpi slt, %k, %c4 : index
    scf.condition(%go) %y, %x, %k : memref<2xf32>, memref<2xf32>, index
  } do {
  ^bb0(%x2: memref<2xf32>, %y2: memref<2xf32>, %k2: index):
    %n = memref.alloc() : memref<2xf32>
    linalg.add ins(%x2, %y2 : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %n, %x2, %k3 : memref<2xf32>, memref<2xf32>, index
  }
  %u = memref.cast %r#0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %r#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
