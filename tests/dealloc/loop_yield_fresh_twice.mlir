// A loop yields one fresh buffer into two carried slots whose inits differ; both results
// are returned. The second slot gets its own copy of the buffer each iteration.
func.func private @printMemrefF32(memref<*xf32>)
func.func private @twice(%n: index, %buf: memref<2xf32>) -> (memref<2xf32>, memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %0 = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%0 : memref<2xf32>)
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %0, %y = %buf) -> (memref<2xf32>, memref<2xf32>) {
    %m = memref.alloc() : memref<2xf32>
    linalg.add ins(%x, %y : memref<2xf32>, memref<2xf32>) outs(%m : memref<2xf32>)
    scf.yield %m, %m : memref<2xf32>, memref<2xf32>
  }
  return %r#0, %r#1 : memref<2xf32>, memref<2xf32>
}
func.func @main() {
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%two : f32) outs(%b : memref<2xf32>)
  %r:2 = call @twice(%c3, %b) : (index, memref<2xf32>) -> (memref<2xf32>, memref<2xf32>)
  %u = memref.cast %r#0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %r#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
