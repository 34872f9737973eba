// Nested ifs in a loop: the inner if yields a fresh buffer or the carried one, the outer
// one yields the inner result or the carried one, which is read after both; the loop
// carries the outer result (its indicator says whether it is the carried buffer).
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.for %i = %c0 to %c7 step %c1 iter_args(%acc = %init) -> (memref<2xf32>) {
    %rem = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %rem3 = arith.remui %i, %c3 : index
    %third = arith.cmpi eq, %rem3, %c0 : index
    %nx = scf.if %even -> (memref<2xf32>) {
      %in = scf.if %third -> (memref<2xf32>) {
        %n = memref.alloc() : memref<2xf32>
        %v = memref.load %acc[%c0] : memref<2xf32>
        %w = arith.addf %v, %one : f32
        linalg.fill ins(%w : f32) outs(%n : memref<2xf32>)
        scf.yield %n : memref<2xf32>
      } else {
        scf.yield %acc : memref<2xf32>
      }
      %t = memref.load %acc[%c1] : memref<2xf32>
      memref.store %t, %in[%c0] : memref<2xf32>
      scf.yield %in : memref<2xf32>
    } else {
      scf.yield %acc : memref<2xf32>
    }
    %q = memref.load %acc[%c1] : memref<2xf32>
    %q2 = arith.addf %q, %one : f32
    memref.store %q2, %nx[%c1] : memref<2xf32>
    scf.yield %nx : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
