// A loop holding an scf.if holding a loop: fresh buffers at every level.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (memref<2xf32>) {
    %rem = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %nx = scf.if %even -> (memref<2xf32>) {
      %in = scf.for %j = %c0 to %c2 step %c1 iter_args(%b = %acc) -> (memref<2xf32>) {
        %n = memref.alloc() : memref<2xf32>
        linalg.add ins(%b, %b : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
        scf.yield %n : memref<2xf32>
      }
      scf.yield %in : memref<2xf32>
    } else {
      %t = memref.alloc() : memref<2xf32>
      linalg.add ins(%acc, %init : memref<2xf32>, memref<2xf32>) outs(%t : memref<2xf32>)
      scf.yield %t : memref<2xf32>
    }
    scf.yield %nx : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
