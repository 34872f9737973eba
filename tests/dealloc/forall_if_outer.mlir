// A buffer made outside an scf.forall is yielded by one branch of an scf.if inside the
// body while the other branch yields a fresh buffer: the body borrows the outer buffer
// (it runs twice), so only the fresh one may be freed there, under its indicator; the
// outer one is dead after the loop.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %out = memref.alloc() : memref<2xf32>
  %outer = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%outer : memref<4xf32>)
  scf.forall (%i) in (2) {
    %odd = arith.cmpi eq, %i, %c1 : index
    %r = scf.if %odd -> (memref<4xf32>) {
      %n = memref.alloc() : memref<4xf32>
      memref.copy %outer, %n : memref<4xf32> to memref<4xf32>
      %v = memref.load %n[%c0] : memref<4xf32>
      %w = arith.addf %v, %one : f32
      memref.store %w, %n[%c0] : memref<4xf32>
      scf.yield %n : memref<4xf32>
    } else {
      scf.yield %outer : memref<4xf32>
    }
    %x = memref.load %r[%c0] : memref<4xf32>
    memref.store %x, %out[%i] : memref<2xf32>
  }
  %u = memref.cast %out : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
