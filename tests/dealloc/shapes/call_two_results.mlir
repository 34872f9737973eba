// A callee returning two distinct fresh buffers; the caller uses both.
func.func private @printMemrefF32(memref<*xf32>)
func.func @pair(%x: f32) -> (memref<2xf32>, memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
  return %a, %b : memref<2xf32>, memref<2xf32>
}
func.func @main() {
  %x = arith.constant 2.0 : f32
  %r:2 = call @pair(%x) : (f32) -> (memref<2xf32>, memref<2xf32>)
  %u = memref.cast %r#0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %v = memref.cast %r#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  return
}
