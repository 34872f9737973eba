// affine.if yields a buffer allocated before it, or a fresh one made in its else region;
// the function returns the result, so the outer buffer is freed only when not returned.
#small = affine_set<(d0) : (4 - d0 >= 0)>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @choose(%i: index) -> memref<2xf32> {
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %o = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%o : memref<2xf32>)
  %r = "affine.if"(%i) <{condition = #small}> ({
    "affine.yield"(%o) : (memref<2xf32>) -> ()
  }, {
    %n = memref.alloc() : memref<2xf32>
    linalg.add ins(%o, %o : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
    "affine.yield"(%n) : (memref<2xf32>) -> ()
  }) : (index) -> memref<2xf32>
  return %r : memref<2xf32>
}
func.func @main() {
  %c2 = arith.constant 2 : index
  %c9 = arith.constant 9 : index
  %a = call @choose(%c2) : (index) -> memref<2xf32>
  %b = call @choose(%c9) : (index) -> memref<2xf32>
  %ua = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  %ub = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  return
}
