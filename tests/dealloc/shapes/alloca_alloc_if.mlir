// scf.if choosing between a stack buffer and a heap buffer.
func.func private @printMemrefF32(memref<*xf32>)
func.func @mix(%c: i1, %x: f32) {
  %s = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%s : memref<2xf32>)
  %r = scf.if %c -> (memref<2xf32>) {
    %a = memref.alloc() : memref<2xf32>
    linalg.add ins(%s, %s : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    scf.yield %a : memref<2xf32>
  } else {
    scf.yield %s : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 2.0 : f32
  call @mix(%t, %x) : (i1, f32) -> ()
  call @mix(%f, %x) : (i1, f32) -> ()
  return
}
