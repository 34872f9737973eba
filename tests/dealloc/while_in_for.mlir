func.func private @printMemrefF32(memref<*xf32>)
// A while nested in an scf.for: the two buffers are swapped every while iteration and the
// after region allocates the next one (a Fibonacci-like recurrence).
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a0 = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a0 : memref<2xf32>)
  %b0 = memref.alloc() : memref<2xf32>
  linalg.fill ins(%two : f32) outs(%b0 : memref<2xf32>)
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a0) -> (memref<2xf32>) {
    %w:3 = scf.while (%x = %acc, %y = %b0, %n = %c0) : (memref<2xf32>, memref<2xf32>, index) -> (memref<2xf32>, memref<2xf32>, index) {
      %go = arith.cmpi slt, %n, %c4 : index
      scf.condition(%go) %x, %y, %n : memref<2xf32>, memref<2xf32>, index
    } do {
    ^bb0(%x2: memref<2xf32>, %y2: memref<2xf32>, %n2: index):
      %t = memref.alloc() : memref<2xf32>
      linalg.add ins(%x2, %y2 : memref<2xf32>, memref<2xf32>) outs(%t : memref<2xf32>)
      %n3 = arith.addi %n2, %c1 : index
      scf.yield %y2, %t, %n3 : memref<2xf32>, memref<2xf32>, index
    }
    %u = memref.cast %w#1 : memref<2xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    scf.yield %w#0 : memref<2xf32>
  }
  %ur = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
  return
}
