// A callee returns one buffer twice (a view of it and the buffer itself): the caller
// keeps one result and must free the other only when it is a different buffer (a runtime
// check with `retain`; freeing it unchecked was a double free, generated seed 25).
func.func private @printMemrefF32(memref<*xf32>)
func.func @view_and_base() -> (memref<2xf32, strided<[1]>>, memref<4xf32>) {
  %s = arith.constant 3.0 : f32
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%s : f32) outs(%a : memref<4xf32>)
  %v = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  return %v, %a : memref<2xf32, strided<[1]>>, memref<4xf32>
}
func.func @keep_view() -> memref<2xf32, strided<[1]>> {
  %r:2 = call @view_and_base() : () -> (memref<2xf32, strided<[1]>>, memref<4xf32>)
  return %r#0 : memref<2xf32, strided<[1]>>
}
func.func @keep_base() -> memref<4xf32> {
  %r:2 = call @view_and_base() : () -> (memref<2xf32, strided<[1]>>, memref<4xf32>)
  return %r#1 : memref<4xf32>
}
func.func @main() {
  %v = call @keep_view() : () -> memref<2xf32, strided<[1]>>
  %u = memref.cast %v : memref<2xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %b = call @keep_base() : () -> memref<4xf32>
  %ub = memref.cast %b : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  return
}
