func.func private @printMemrefF32(memref<*xf32>)
func.func @make(%x: f32) -> memref<3xf32> {
  %a = memref.alloc() : memref<3xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<3xf32>)
  return %a : memref<3xf32>
}
func.func @twice(%x: f32) -> memref<3xf32> {
  %a = call @make(%x) : (f32) -> memref<3xf32>
  %b = call @make(%x) : (f32) -> memref<3xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<3xf32>
  %w = arith.addf %v, %v : f32
  memref.store %w, %b[%c0] : memref<3xf32>
  return %b : memref<3xf32>
}
func.func @main() {
  %x = arith.constant 4.0 : f32
  %r = call @twice(%x) : (f32) -> memref<3xf32>
  %s = memref.subview %r[1] [2] [1] : memref<3xf32> to memref<2xf32, strided<[1], offset: 1>>
  %u = memref.cast %s : memref<2xf32, strided<[1], offset: 1>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %u2 = memref.cast %r : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
