// scf.while: the after region's if yields the carried buffer or a fresh one, and reads
// the carried buffer after the if; the loop carries the result.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %lim = arith.constant 9.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.while (%acc = %init) : (memref<2xf32>) -> memref<2xf32> {
    %v = memref.load %acc[%c0] : memref<2xf32>
    %go = arith.cmpf olt, %v, %lim : f32
    scf.condition(%go) %acc : memref<2xf32>
  } do {
  ^bb0(%b: memref<2xf32>):
    %v = memref.load %b[%c0] : memref<2xf32>
    %s = memref.load %b[%c1] : memref<2xf32>
    %big = arith.cmpf ogt, %s, %lim : f32
    %nx = scf.if %big -> (memref<2xf32>) {
      scf.yield %b : memref<2xf32>
    } else {
      %n = memref.alloc() : memref<2xf32>
      %w = arith.addf %v, %one : f32
      linalg.fill ins(%w : f32) outs(%n : memref<2xf32>)
      scf.yield %n : memref<2xf32>
    }
    %s2 = arith.addf %s, %s : f32
    memref.store %s2, %nx[%c1] : memref<2xf32>
    %v2 = memref.load %b[%c0] : memref<2xf32>
    %v3 = arith.addf %v2, %one : f32
    memref.store %v3, %nx[%c0] : memref<2xf32>
    scf.yield %nx : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
