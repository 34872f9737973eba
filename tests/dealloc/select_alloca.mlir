func.func private @printMemrefF32(memref<*xf32>)
func.func @use(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<2xf32>
  %s = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  %y = arith.mulf %x, %x : f32
  linalg.fill ins(%y : f32) outs(%s : memref<2xf32>)
  %p = arith.select %c, %a, %s : memref<2xf32>
  %u = memref.cast %p : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 3.0 : f32
  call @use(%t, %x) : (i1, f32) -> ()
  call @use(%f, %x) : (i1, f32) -> ()
  return
}
