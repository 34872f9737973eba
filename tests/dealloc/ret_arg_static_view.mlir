func.func private @printMemrefF32(memref<*xf32>)
// Returning a static-offset view of an argument: the caller must own the result, so it
// is cloned, through its base (a clone of such a view type cannot be lowered).
func.func @tail(%a: memref<4xf32>) -> memref<2xf32, strided<[1], offset: 2>> {
  %s = memref.subview %a[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
  return %s : memref<2xf32, strided<[1], offset: 2>>
}
func.func @main() {
  %one = arith.constant 1.5 : f32
  %b = memref.alloca() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<4xf32>)
  %r = call @tail(%b) : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 2>>
  %u = memref.cast %r : memref<2xf32, strided<[1], offset: 2>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
