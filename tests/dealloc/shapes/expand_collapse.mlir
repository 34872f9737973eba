// Reshaped views of a fresh buffer.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<6xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
  linalg.fill ins(%one : f32) outs(%e : memref<2x3xf32>)
  %c = memref.collapse_shape %e [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  %u = memref.cast %c : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
