func.func private @printMemrefF32(memref<*xf32>)
// scf.index_switch and scf.execute_region with memref results: a fresh buffer, an outer
// buffer handed over, and a fresh buffer from a nested execute_region.
func.func @sel(%i: index) -> memref<2xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2xf32>)
  %r = scf.index_switch %i -> memref<2xf32>
  case 0 {
    %b = memref.alloc() : memref<2xf32>
    linalg.fill ins(%two : f32) outs(%b : memref<2xf32>)
    scf.yield %b : memref<2xf32>
  }
  case 1 {
    scf.yield %a : memref<2xf32>
  }
  default {
    %e = scf.execute_region -> memref<2xf32> {
      %c = memref.alloc() : memref<2xf32>
      linalg.add ins(%a, %a : memref<2xf32>, memref<2xf32>) outs(%c : memref<2xf32>)
      scf.yield %c : memref<2xf32>
    }
    scf.yield %e : memref<2xf32>
  }
  return %r : memref<2xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %m0 = call @sel(%c0) : (index) -> memref<2xf32>
  %u0 = memref.cast %m0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %m1 = call @sel(%c1) : (index) -> memref<2xf32>
  %u1 = memref.cast %m1 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %m7 = call @sel(%c7) : (index) -> memref<2xf32>
  %u7 = memref.cast %m7 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u7) : (memref<*xf32>) -> ()
  return
}
