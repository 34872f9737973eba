// A loop writes into its carried buffer and yields it unchanged; the buffer, read again
// after the loop, is returned through the loop's result. The result is the init itself:
// returned as is, no clone (mlir-opt folds the carried slot the same way).
func.func private @printMemrefF32(memref<*xf32>)
func.func private @accumulate(%n: index, %x: f32) -> memref<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<3xf32>
  linalg.fill ins(%x : f32) outs(%buf : memref<3xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %buf) -> (memref<3xf32>) {
    %v = memref.load %acc[%c1] : memref<3xf32>
    %w = arith.addf %v, %x : f32
    memref.store %w, %acc[%c1] : memref<3xf32>
    scf.yield %acc : memref<3xf32>
  }
  %first = memref.load %buf[%c0] : memref<3xf32>
  %twice = arith.addf %first, %first : f32
  memref.store %twice, %r[%c0] : memref<3xf32>
  return %r : memref<3xf32>
}
func.func @main() {
  %c4 = arith.constant 4 : index
  %x = arith.constant 1.5 : f32
  %r = call @accumulate(%c4, %x) : (index, f32) -> memref<3xf32>
  %u = memref.cast %r : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
