// affine.if inside an scf.for (its dimension a function argument, valid in the loop):
// when it holds, a fresh buffer replaces the carried one on every iteration, else the
// carried one goes on. Called both ways.
#even = affine_set<(d0) : (d0 mod 2 == 0)>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @run(%k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (memref<2xf32>) {
    %nx = "affine.if"(%k) <{condition = #even}> ({
      %n = memref.alloc() : memref<2xf32>
      linalg.add ins(%acc, %acc : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
      "affine.yield"(%n) : (memref<2xf32>) -> ()
    }, {
      "affine.yield"(%acc) : (memref<2xf32>) -> ()
    }) : (index) -> memref<2xf32>
    scf.yield %nx : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  call @run(%c2) : (index) -> ()
  call @run(%c3) : (index) -> ()
  return
}
