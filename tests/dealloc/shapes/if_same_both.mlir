// Both branches of an scf.if yield the same outer allocation.
func.func private @printMemrefF32(memref<*xf32>)
func.func @same(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  %r = scf.if %c -> (memref<2xf32>) {
    scf.yield %a : memref<2xf32>
  } else {
    scf.yield %a : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 3.0 : f32
  call @same(%t, %x) : (i1, f32) -> ()
  call @same(%f, %x) : (i1, f32) -> ()
  return
}
