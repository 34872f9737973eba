// A buffer grown by memref.realloc in every iteration of a loop.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc(%c1) : memref<?xf32>
  memref.store %one, %a[%c0] : memref<?xf32>
  %r = scf.for %i = %c1 to %c4 step %c1 iter_args(%acc = %a) -> (memref<?xf32>) {
    %n = arith.addi %i, %c1 : index
    %g = "memref.realloc"(%acc, %n) : (memref<?xf32>, index) -> memref<?xf32>
    %f = arith.index_cast %i : index to i32
    %x = arith.sitofp %f : i32 to f32
    memref.store %x, %g[%i] : memref<?xf32>
    scf.yield %g : memref<?xf32>
  }
  %u = memref.cast %r : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
