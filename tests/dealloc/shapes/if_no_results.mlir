// Allocations local to the branches of an scf.if without results.
func.func private @printMemrefF32(memref<*xf32>)
func.func @local(%c: i1, %in: memref<2xf32>) {
  scf.if %c {
    %a = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    %u = memref.cast %a : memref<2xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  } else {
    %b = memref.alloc() : memref<4xf32>
    %z = arith.constant 0.0 : f32
    linalg.fill ins(%z : f32) outs(%b : memref<4xf32>)
    %u = memref.cast %b : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @local(%t, %b) : (i1, memref<2xf32>) -> ()
  call @local(%f, %b) : (i1, memref<2xf32>) -> ()
  return
}
