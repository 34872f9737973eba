// scf.index_switch: fresh buffers in two cases, the argument in the default.
func.func private @printMemrefF32(memref<*xf32>)
func.func @sw(%i: index, %in: memref<2xf32>) {
  %r = scf.index_switch %i -> memref<2xf32>
  case 0 {
    %a = memref.alloc() : memref<2xf32>
    linalg.add ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%a : memref<2xf32>)
    scf.yield %a : memref<2xf32>
  }
  case 1 {
    %b = memref.alloc() : memref<2xf32>
    linalg.mul ins(%in, %in : memref<2xf32>, memref<2xf32>) outs(%b : memref<2xf32>)
    scf.yield %b : memref<2xf32>
  }
  default {
    scf.yield %in : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %x = arith.constant 3.0 : f32
  %b = memref.alloca() : memref<2xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  call @sw(%c0, %b) : (index, memref<2xf32>) -> ()
  call @sw(%c1, %b) : (index, memref<2xf32>) -> ()
  call @sw(%c5, %b) : (index, memref<2xf32>) -> ()
  return
}
