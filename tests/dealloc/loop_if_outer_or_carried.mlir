// An scf.if in a loop yields an outer buffer (still needed after the loop) or the carried
// one; the loop carries the result. Whether the carried buffer is freed at the end of an
// iteration depends on which one the if chose: a pointer comparison, not a clone.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant 1.0 : f32
  %outer = memref.alloc() : memref<8xf32>
  %init = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%outer : memref<8xf32>)
  linalg.fill ins(%one : f32) outs(%init : memref<8xf32>)
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %init) -> (memref<8xf32>) {
    %late = arith.cmpi sge, %i, %c3 : index
    %nx = scf.if %late -> (memref<8xf32>) {
      scf.yield %outer : memref<8xf32>
    } else {
      scf.yield %acc : memref<8xf32>
    }
    %v = memref.load %nx[%c0] : memref<8xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %nx[%c0] : memref<8xf32>
    scf.yield %nx : memref<8xf32>
  }
  %u = memref.cast %r : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %o = memref.cast %outer : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%o) : (memref<*xf32>) -> ()
  return
}
