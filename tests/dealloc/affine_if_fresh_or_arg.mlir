// affine.if (generic form) yields a fresh buffer or the caller's argument; the function
// returns it: run-time ownership, the argument cloned only on the path that yields it.
#ge3 = affine_set<(d0) : (d0 - 3 >= 0)>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @pick(%i: index, %arg: memref<3xf32>) -> memref<3xf32> {
  %two = arith.constant 2.0 : f32
  %r = "affine.if"(%i) <{condition = #ge3}> ({
    %n = memref.alloc() : memref<3xf32>
    linalg.fill ins(%two : f32) outs(%n : memref<3xf32>)
    "affine.yield"(%n) : (memref<3xf32>) -> ()
  }, {
    "affine.yield"(%arg) : (memref<3xf32>) -> ()
  }) : (index) -> memref<3xf32>
  return %r : memref<3xf32>
}
func.func @main() {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<3xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<3xf32>)
  %p = call @pick(%c5, %a) : (index, memref<3xf32>) -> memref<3xf32>
  %q = call @pick(%c1, %a) : (index, memref<3xf32>) -> memref<3xf32>
  %up = memref.cast %p : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%up) : (memref<*xf32>) -> ()
  %uq = memref.cast %q : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%uq) : (memref<*xf32>) -> ()
  return
}
