// One buffer returned twice.
func.func private @printMemrefF32(memref<*xf32>)
func.func @dup(%x: f32) -> (memref<2xf32>, memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  return %a, %a : memref<2xf32>, memref<2xf32>
}
func.func @main() {
  %x = arith.constant 2.0 : f32
  %r:2 = call @dup(%x) : (f32) -> (memref<2xf32>, memref<2xf32>)
  %u = memref.cast %r#1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
