func.func private @printMemrefF32(memref<*xf32>)
func.func @fwd(%arg: memref<2xf32>, %c: i1) {
  %a = memref.alloc() : memref<2xf32>
  %x = arith.constant 7.0 : f32
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  cf.cond_br %c, ^bb1(%a : memref<2xf32>), ^bb1(%arg : memref<2xf32>)
^bb1(%m: memref<2xf32>):
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %b = memref.alloc() : memref<2xf32>
  %x = arith.constant 2.0 : f32
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @fwd(%b, %t) : (memref<2xf32>, i1) -> ()
  call @fwd(%b, %f) : (memref<2xf32>, i1) -> ()
  memref.dealloc %b : memref<2xf32>
  return
}
