// A loop without memref iter_args that allocates and uses a temporary every iteration.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f32) {
    %t = memref.alloc() : memref<2xf32>
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%t : memref<2xf32>)
    %v = memref.load %t[%c0] : memref<2xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  %out = memref.alloc() : memref<1xf32>
  memref.store %s, %out[%c0] : memref<1xf32>
  %u = memref.cast %out : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
