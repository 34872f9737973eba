// An scf.while hands its buffer unchanged from `before` to `after` and back; a fresh
// buffer per iteration is the other carried value. The first slot always holds the init:
// after the loop it is the init's buffer, freed once.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  linalg.fill ins(%one : f32) outs(%b : memref<2xf32>)
  %r:3 = scf.while (%x = %a, %y = %b, %i = %c0) : (memref<2xf32>, memref<2xf32>, index) -> (memref<2xf32>, memref<2xf32>, index) {
    %go = arith.cmpi slt, %i, %c3 : index
    scf.condition(%go) %x, %y, %i : memref<2xf32>, memref<2xf32>, index
  } do {
  ^bb0(%x: memref<2xf32>, %y: memref<2xf32>, %i: index):
    %n = memref.alloc() : memref<2xf32>
    linalg.add ins(%x, %y : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
    %j = arith.addi %i, %c1 : index
    scf.yield %x, %n, %j : memref<2xf32>, memref<2xf32>, index
  }
  %u = memref.cast %r#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %r#0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
