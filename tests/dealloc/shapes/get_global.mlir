// A constant global and a heap copy of it.
memref.global "private" constant @k : memref<2xf32> = dense<[1.0, 2.0]>
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %g = memref.get_global @k : memref<2xf32>
  %a = memref.alloc() : memref<2xf32>
  memref.copy %g, %a : memref<2xf32> to memref<2xf32>
  linalg.add ins(%a, %g : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
  %u = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
