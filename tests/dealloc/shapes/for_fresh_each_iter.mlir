// scf.for carrying a buffer that each iteration replaces with a fresh one.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (memref<2xf32>) {
    %n = memref.alloc() : memref<2xf32>
    linalg.add ins(%acc, %acc : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
    scf.yield %n : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
