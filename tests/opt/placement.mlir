// Allocations for the placement passes: in a loop, in both branches of an scf.if, of
// several sizes and ranks.
func.func @loop(%n: index, %v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> f32 {
    %a = memref.alloc() : memref<4xf32>
    memref.store %acc, %a[%c0] : memref<4xf32>
    %x = memref.load %a[%c0] : memref<4xf32>
    %s = arith.addf %x, %acc : f32
    scf.yield %s : f32
  }
  return %r : f32
}
func.func @branches(%c: i1, %m: memref<4xf32>) -> memref<4xf32> {
  %r = scf.if %c -> memref<4xf32> {
    %a = memref.alloc() : memref<4xf32>
    memref.copy %m, %a : memref<4xf32> to memref<4xf32>
    scf.yield %a : memref<4xf32>
  } else {
    %b = memref.alloc() : memref<4xf32>
    scf.yield %b : memref<4xf32>
  }
  return %r : memref<4xf32>
}
func.func @sizes(%n: index, %v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xf32>
  memref.store %v, %a[%c0] : memref<?xf32>
  %x = memref.load %a[%c0] : memref<?xf32>
  %b = memref.alloc() : memref<2x2xf32>
  memref.store %x, %b[%c0, %c0] : memref<2x2xf32>
  %y = memref.load %b[%c0, %c0] : memref<2x2xf32>
  %big = memref.alloc() : memref<2048xf32>
  memref.store %y, %big[%c0] : memref<2048xf32>
  %z = memref.load %big[%c0] : memref<2048xf32>
  return %z : f32
}
