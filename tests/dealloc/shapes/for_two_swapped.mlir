// A loop carrying two buffers that swap places every iteration (one fresh per iteration).
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  linalg.fill ins(%two : f32) outs(%b : memref<2xf32>)
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %a, %y = %b) -> (memref<2xf32>, memref<2xf32>) {
    %n = memref.alloc() : memref<2xf32>
    linalg.add ins(%x, %y : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
    scf.yield %y, %n : memref<2xf32>, memref<2xf32>
  }
  %u = memref.cast %r#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
