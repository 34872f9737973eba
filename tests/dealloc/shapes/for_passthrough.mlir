// scf.for whose iter_arg is yielded unchanged; a temporary is allocated in the body.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (memref<2xf32>) {
    %t = memref.alloc() : memref<2xf32>
    linalg.add ins(%acc, %acc : memref<2xf32>, memref<2xf32>) outs(%t : memref<2xf32>)
    memref.copy %t, %acc : memref<2xf32> to memref<2xf32>
    scf.yield %acc : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
