// Both branches of an scf.if allocate the yielded buffer.
func.func private @printMemrefF32(memref<*xf32>)
func.func @both(%c: i1, %x: f32) {
  %r = scf.if %c -> (memref<3xf32>) {
    %a = memref.alloc() : memref<3xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<3xf32>)
    scf.yield %a : memref<3xf32>
  } else {
    %b = memref.alloc() : memref<3xf32>
    %y = arith.mulf %x, %x : f32
    linalg.fill ins(%y : f32) outs(%b : memref<3xf32>)
    scf.yield %b : memref<3xf32>
  }
  %u = memref.cast %r : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 3.0 : f32
  call @both(%t, %x) : (i1, f32) -> ()
  call @both(%f, %x) : (i1, f32) -> ()
  return
}
