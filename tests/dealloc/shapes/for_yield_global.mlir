// A loop whose carried buffer starts as a constant global and becomes fresh buffers.
memref.global "private" constant @init : memref<2xf32> = dense<[1.0, 2.0]>
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %g = memref.get_global @init : memref<2xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %g) -> (memref<2xf32>) {
    %n = memref.alloc() : memref<2xf32>
    linalg.add ins(%acc, %acc : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
    scf.yield %n : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
