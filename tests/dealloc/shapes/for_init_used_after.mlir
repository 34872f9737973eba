// The loop's init is still read after the loop; the loop yields fresh buffers.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (memref<2xf32>) {
    %n = memref.alloc() : memref<2xf32>
    linalg.add ins(%acc, %init : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
    scf.yield %n : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %init : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
