// arith.select between two fresh buffers, used and then dropped.
func.func private @printMemrefF32(memref<*xf32>)
func.func @sel(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
  %s = arith.select %c, %a, %b : memref<2xf32>
  %u = memref.cast %s : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 3.0 : f32
  call @sel(%t, %x) : (i1, f32) -> ()
  call @sel(%f, %x) : (i1, f32) -> ()
  return
}
