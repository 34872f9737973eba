// Two carried buffers that an arith.select pair swaps or keeps on each iteration: each
// yielded value is one of the two carried buffers, known only at run time. mlir-opt hands
// them over with pointer comparisons; a clone of each per iteration would allocate and
// copy both buffers every time.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<4xf32>)
  linalg.fill ins(%two : f32) outs(%b : memref<4xf32>)
  %r:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%x = %a, %y = %b) -> (memref<4xf32>, memref<4xf32>) {
    %rem = arith.remui %i, %c2 : index
    %odd = arith.cmpi ne, %rem, %c0 : index
    %v = memref.load %x[%c0] : memref<4xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%c1] : memref<4xf32>
    %s = arith.select %odd, %y, %x : memref<4xf32>
    %t = arith.select %odd, %x, %y : memref<4xf32>
    scf.yield %s, %t : memref<4xf32>, memref<4xf32>
  }
  %u = memref.cast %r#0 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %u1 = memref.cast %r#1 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  return
}
