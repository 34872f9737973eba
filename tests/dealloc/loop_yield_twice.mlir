// A loop yields one fresh buffer to two iter_args. mlir-opt passes it twice with
// run-time ownership flags; bufferlog ties the second iter_arg to the first (it borrows).
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %init, %b = %init) -> (memref<2xf32>, memref<2xf32>) {
    %x = memref.load %a[%c0] : memref<2xf32>
    %y = memref.load %b[%c1] : memref<2xf32>
    %s = arith.addf %x, %y : f32
    %n = memref.alloc() : memref<2xf32>
    linalg.fill ins(%s : f32) outs(%n : memref<2xf32>)
    scf.yield %n, %n : memref<2xf32>, memref<2xf32>
  }
  %u = memref.cast %r#0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %u2 = memref.cast %r#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
