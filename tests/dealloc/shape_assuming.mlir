// Two shape.assuming regions (generic form): the first uses a temporary buffer and yields
// an outer one, the second yields a fresh buffer used after it. Runs after canonicalize
// inlines the regions under a constant witness.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %w = "shape.const_witness"() <{passing = true}> : () -> !shape.witness
  %o = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%o : memref<2xf32>)
  %a = "shape.assuming"(%w) ({
    %t = memref.alloc() : memref<2xf32>
    linalg.add ins(%o, %o : memref<2xf32>, memref<2xf32>) outs(%t : memref<2xf32>)
    %v = memref.load %t[%c0] : memref<2xf32>
    memref.store %v, %o[%c0] : memref<2xf32>
    "shape.assuming_yield"(%o) : (memref<2xf32>) -> ()
  }) : (!shape.witness) -> memref<2xf32>
  %b = "shape.assuming"(%w) ({
    %n = memref.alloc() : memref<2xf32>
    linalg.add ins(%a, %o : memref<2xf32>, memref<2xf32>) outs(%n : memref<2xf32>)
    "shape.assuming_yield"(%n) : (memref<2xf32>) -> ()
  }) : (!shape.witness) -> memref<2xf32>
  %ub = memref.cast %b : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  return
}
