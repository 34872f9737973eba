// memref.realloc grows a fresh buffer; realloc frees (or reuses) its source.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  %b = "memref.realloc"(%a) : (memref<2xf32>) -> memref<4xf32>
  %two = arith.constant 2.0 : f32
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  memref.store %two, %b[%c2] : memref<4xf32>
  memref.store %two, %b[%c3] : memref<4xf32>
  %u = memref.cast %b : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
