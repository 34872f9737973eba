// Returning a subview of a fresh buffer (the result type keeps the strided layout).
func.func private @printMemrefF32(memref<*xf32>)
func.func @tail(%x: f32) -> memref<2xf32, strided<[1], offset: 2>> {
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  %s = memref.subview %a[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
  return %s : memref<2xf32, strided<[1], offset: 2>>
}
func.func @main() {
  %x = arith.constant 2.0 : f32
  %r = call @tail(%x) : (f32) -> memref<2xf32, strided<[1], offset: 2>>
  %u = memref.cast %r : memref<2xf32, strided<[1], offset: 2>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
