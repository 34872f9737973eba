// Inside the loop an scf.if yields a fresh buffer or the iter_arg.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (memref<2xf32>) {
    %small = arith.cmpi ult, %i, %c3 : index
    %nx = scf.if %small -> (memref<2xf32>) {
      %n = memref.alloc() : memref<2xf32>
      linalg.add ins(%acc, %acc : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
      scf.yield %n : memref<2xf32>
    } else {
      scf.yield %acc : memref<2xf32>
    }
    scf.yield %nx : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
