// The results of one call are one buffer (a view and its base); inside a loop, the base
// is carried to the next iteration and the view is read and dropped: the view's free is
// checked against the carried buffer.
func.func private @printMemrefF32(memref<*xf32>)
func.func @view_and_base(%s: f32) -> (memref<2xf32, strided<[1]>>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%s : f32) outs(%a : memref<4xf32>)
  %v = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  return %v, %a : memref<2xf32, strided<[1]>>, memref<4xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<4xf32>)
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
    %x = memref.load %acc[%c0] : memref<4xf32>
    %y = arith.addf %x, %one : f32
    %p:2 = func.call @view_and_base(%y) : (f32) -> (memref<2xf32, strided<[1]>>, memref<4xf32>)
    %z = memref.load %p#0[%c1] : memref<2xf32, strided<[1]>>
    memref.store %z, %p#1[%c1] : memref<4xf32>
    scf.yield %p#1 : memref<4xf32>
  }
  %u = memref.cast %r : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
