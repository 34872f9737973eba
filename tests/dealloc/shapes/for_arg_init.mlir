// A loop carrying a function argument, replaced by fresh buffers; the result returned.
func.func private @printMemrefF32(memref<*xf32>)
func.func @iterate(%in: memref<2xf32>, %n: index) -> memref<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %in) -> (memref<2xf32>) {
    %t = memref.alloc() : memref<2xf32>
    linalg.add ins(%acc, %acc : memref<2xf32>, memref<2xf32>) outs(%t : memref<2xf32>)
    scf.yield %t : memref<2xf32>
  }
  return %r : memref<2xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  %r = call @iterate(%b, %c3) : (memref<2xf32>, index) -> memref<2xf32>
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %r0 = call @iterate(%b, %c0) : (memref<2xf32>, index) -> memref<2xf32>
  %u0 = memref.cast %r0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  return
}
