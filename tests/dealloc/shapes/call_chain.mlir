// A call's result passed to another function and returned from a third.
func.func private @printMemrefF32(memref<*xf32>)
func.func @make(%x: f32) -> memref<2xf32> {
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<2xf32>)
  return %a : memref<2xf32>
}
func.func @show(%m: memref<2xf32>) {
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @wrap(%x: f32) -> memref<2xf32> {
  %a = call @make(%x) : (f32) -> memref<2xf32>
  call @show(%a) : (memref<2xf32>) -> ()
  return %a : memref<2xf32>
}
func.func @main() {
  %x = arith.constant 2.0 : f32
  %r = call @wrap(%x) : (f32) -> memref<2xf32>
  call @show(%r) : (memref<2xf32>) -> ()
  return
}
