// The loop yields a buffer defined before it (not its iter_arg).
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
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (memref<2xf32>) {
    linalg.add ins(%acc, %b : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
    scf.yield %b : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
