// An allocation that is only stored into, never read.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  memref.store %one, %a[%c0] : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<2xf32>)
  %u = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
