// Two results that borrow one buffer dying at the return (on the else path; on the then
// path the second is a fresh buffer): each is returned as is when a pointer comparison
// finds it to be that buffer, and the caller, told the two results may be one buffer,
// frees it once.
func.func private @printMemrefF32(memref<*xf32>)
func.func private @two(%c: i1, %x: f32) -> (memref<3xf32>, memref<3xf32>) {
  %a = memref.alloc() : memref<3xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<3xf32>)
  cf.cond_br %c, ^then, ^else(%a : memref<3xf32>)
^then:
  %n = memref.alloc() : memref<3xf32>
  linalg.add ins(%a, %a : memref<3xf32>, memref<3xf32>) outs(%n : memref<3xf32>)
  cf.br ^join(%a, %n : memref<3xf32>, memref<3xf32>)
^else(%b: memref<3xf32>):
  cf.br ^join(%b, %a : memref<3xf32>, memref<3xf32>)
^join(%p: memref<3xf32>, %q: memref<3xf32>):
  return %p, %q : memref<3xf32>, memref<3xf32>
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.5 : f32
  %r:2 = call @two(%t, %x) : (i1, f32) -> (memref<3xf32>, memref<3xf32>)
  %u0 = memref.cast %r#0 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %u1 = memref.cast %r#1 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %s:2 = call @two(%f, %x) : (i1, f32) -> (memref<3xf32>, memref<3xf32>)
  %v0 = memref.cast %s#0 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%v0) : (memref<*xf32>) -> ()
  %v1 = memref.cast %s#1 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%v1) : (memref<*xf32>) -> ()
  return
}
