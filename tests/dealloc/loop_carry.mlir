func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<3xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<3xf32>)
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (memref<3xf32>) {
    %n = memref.alloc() : memref<3xf32>
    %v = memref.load %acc[%c0] : memref<3xf32>
    %w = arith.addf %v, %v : f32
    linalg.fill ins(%w : f32) outs(%n : memref<3xf32>)
    scf.yield %n : memref<3xf32>
  }
  %u = memref.cast %r : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
