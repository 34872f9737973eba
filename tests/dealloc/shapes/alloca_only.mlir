// Stack buffers only: nothing to free.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %one = arith.constant 1.0 : f32
  %a = memref.alloca() : memref<2xf32>
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
  %u = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
