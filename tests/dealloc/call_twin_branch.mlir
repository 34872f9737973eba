// The results of one call are one buffer (a view and its base); each branch forwards
// a view of it, so the returned value is owned on one path only (an indicator): the
// free of the base is checked against what is returned (the value or its clone). The
// results are printed through a copy: bufferlog returns a clone where mlir-opt returns
// the view itself (same values, another offset in the printed descriptor).
func.func private @printMemrefF32(memref<*xf32>)
func.func @view_and_base(%s: f32) -> (memref<2xf32, strided<[1], offset: ?>>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%s : f32) outs(%a : memref<4xf32>)
  %v0 = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %v = memref.cast %v0 : memref<2xf32, strided<[1]>> to memref<2xf32, strided<[1], offset: ?>>
  return %v, %a : memref<2xf32, strided<[1], offset: ?>>, memref<4xf32>
}
func.func @pick(%c: i1) -> memref<2xf32, strided<[1], offset: ?>> {
  %one = arith.constant 1.0 : f32
  %p:2 = call @view_and_base(%one) : (f32) -> (memref<2xf32, strided<[1], offset: ?>>, memref<4xf32>)
  cf.cond_br %c, ^a, ^b
^a:
  %w = memref.subview %p#1[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
  %k = memref.cast %w : memref<2xf32, strided<[1], offset: 2>> to memref<2xf32, strided<[1], offset: ?>>
  cf.br ^c(%k : memref<2xf32, strided<[1], offset: ?>>)
^b:
  cf.br ^c(%p#0 : memref<2xf32, strided<[1], offset: ?>>)
^c(%r: memref<2xf32, strided<[1], offset: ?>>):
  return %r : memref<2xf32, strided<[1], offset: ?>>
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %out = memref.alloc() : memref<2xf32>
  %a = call @pick(%t) : (i1) -> memref<2xf32, strided<[1], offset: ?>>
  memref.copy %a, %out : memref<2xf32, strided<[1], offset: ?>> to memref<2xf32>
  %ua = memref.cast %out : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  %b = call @pick(%f) : (i1) -> memref<2xf32, strided<[1], offset: ?>>
  memref.copy %b, %out : memref<2xf32, strided<[1], offset: ?>> to memref<2xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  return
}
