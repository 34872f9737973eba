// A subview of a fresh buffer flows into a join block through cf.
func.func private @printMemrefF32(memref<*xf32>)
func.func @part(%c: i1, %x: f32) {
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
  %s = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  %d = memref.cast %s : memref<2xf32, strided<[1], offset: 1>> to memref<2xf32, strided<[1], offset: ?>>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = memref.alloc() : memref<2xf32>
  %bc = memref.cast %b : memref<2xf32> to memref<2xf32, strided<[1], offset: ?>>
  linalg.fill ins(%x : f32) outs(%b : memref<2xf32>)
  cf.br ^bb3(%bc : memref<2xf32, strided<[1], offset: ?>>)
^bb2:
  cf.br ^bb3(%d : memref<2xf32, strided<[1], offset: ?>>)
^bb3(%m: memref<2xf32, strided<[1], offset: ?>>):
  %u = memref.cast %m : memref<2xf32, strided<[1], offset: ?>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 6.0 : f32
  call @part(%t, %x) : (i1, f32) -> ()
  call @part(%f, %x) : (i1, f32) -> ()
  return
}
