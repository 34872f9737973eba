func.func @pick(%c: i1, %x: f32) -> memref<2xf32, strided<[1], offset: 2>> {
  %r = scf.if %c -> (memref<2xf32, strided<[1], offset: 2>>) {
    %a = memref.alloc() : memref<4xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<4xf32>)
    %v = memref.subview %a[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
    scf.yield %v : memref<2xf32, strided<[1], offset: 2>>
  } else {
    %b = memref.alloc() : memref<4xf32>
    %y = arith.addf %x, %x : f32
    linalg.fill ins(%y : f32) outs(%b : memref<4xf32>)
    %w = memref.subview %b[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
    scf.yield %w : memref<2xf32, strided<[1], offset: 2>>
  }
  return %r : memref<2xf32, strided<[1], offset: 2>>
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.5 : f32
  %p = call @pick(%t, %x) : (i1, f32) -> memref<2xf32, strided<[1], offset: 2>>
  %q = call @pick(%f, %x) : (i1, f32) -> memref<2xf32, strided<[1], offset: 2>>
  %up = memref.cast %p : memref<2xf32, strided<[1], offset: 2>> to memref<*xf32>
  %uq = memref.cast %q : memref<2xf32, strided<[1], offset: 2>> to memref<*xf32>
  call @printMemrefF32(%up) : (memref<*xf32>) -> ()
  call @printMemrefF32(%uq) : (memref<*xf32>) -> ()
  return
}
