// Each branch of an scf.if yields a subview of its own fresh buffer.
func.func private @printMemrefF32(memref<*xf32>)
func.func @part(%c: i1, %x: f32) {
  %r = scf.if %c -> (memref<2xf32, strided<[1], offset: ?>>) {
    %a = memref.alloc() : memref<4xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
    %s = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
    %d = memref.cast %s : memref<2xf32, strided<[1], offset: 1>> to memref<2xf32, strided<[1], offset: ?>>
    scf.yield %d : memref<2xf32, strided<[1], offset: ?>>
  } else {
    %b = memref.alloc() : memref<2xf32>
    %y = arith.addf %x, %x : f32
    linalg.fill ins(%y : f32) outs(%b : memref<2xf32>)
    %e = memref.cast %b : memref<2xf32> to memref<2xf32, strided<[1], offset: ?>>
    scf.yield %e : memref<2xf32, strided<[1], offset: ?>>
  }
  %u = memref.cast %r : memref<2xf32, strided<[1], offset: ?>> to memref<*xf32>
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
