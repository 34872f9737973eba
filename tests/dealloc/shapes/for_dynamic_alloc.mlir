// A loop allocating a dynamically sized temporary and carrying a fresh buffer.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc(%c3) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<?xf32>)
  %r = scf.for %i = %c1 to %c3 step %c1 iter_args(%acc = %init) -> (memref<?xf32>) {
    %n = memref.alloc(%c3) : memref<?xf32>
    %t = memref.alloc(%i) : memref<?xf32>
    linalg.fill ins(%one : f32) outs(%t : memref<?xf32>)
    %v = memref.load %t[%c0] : memref<?xf32>
    linalg.fill ins(%v : f32) outs(%n : memref<?xf32>)
    linalg.add ins(%acc, %n : memref<?xf32>, memref<?xf32>) outs(%n : memref<?xf32>)
    scf.yield %n : memref<?xf32>
  }
  %u = memref.cast %r : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
