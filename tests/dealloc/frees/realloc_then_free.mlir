// memref.realloc in one branch of an scf.if; the input frees the grown buffer itself.
func.func private @printMemrefF32(memref<*xf32>)
func.func @grow(%c: i1) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  scf.if %c {
    %b = "memref.realloc"(%a) : (memref<2xf32>) -> memref<4xf32>
    %c3 = arith.constant 3 : index
    memref.store %one, %b[%c3] : memref<4xf32>
    %u = memref.cast %b : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %b : memref<4xf32>
  } else {
    %u = memref.cast %a : memref<2xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  call @grow(%t) : (i1) -> ()
  call @grow(%f) : (i1) -> ()
  return
}
