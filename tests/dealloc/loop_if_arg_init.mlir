// As loop_if_keeps_carried, with a function argument as the loop's init: the carried
// buffer is owned only at run time (an indicator), and the next iteration owns its buffer
// when the if made one or the carried buffer was owned (an arith.ori of the two).
func.func private @printMemrefF32(memref<*xf32>)
func.func @step(%arg: memref<2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %arg) -> (memref<2xf32>) {
    %rem = arith.remui %i, %c3 : index
    %z = arith.cmpi ne, %rem, %c0 : index
    %nx = scf.if %z -> (memref<2xf32>) {
      %m = memref.alloc() : memref<2xf32>
      %v = memref.load %acc[%c0] : memref<2xf32>
      %w = arith.addf %v, %one : f32
      linalg.fill ins(%w : f32) outs(%m : memref<2xf32>)
      scf.yield %m : memref<2xf32>
    } else {
      scf.yield %acc : memref<2xf32>
    }
    %q = memref.load %acc[%c1] : memref<2xf32>
    %q2 = arith.addf %q, %q : f32
    memref.store %q2, %nx[%c1] : memref<2xf32>
    scf.yield %nx : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  call @step(%a, %c0) : (memref<2xf32>, index) -> ()
  call @step(%a, %c1) : (memref<2xf32>, index) -> ()
  call @step(%a, %c5) : (memref<2xf32>, index) -> ()
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
