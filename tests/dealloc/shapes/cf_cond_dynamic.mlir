// A dynamically sized buffer allocated on one path joins an argument.
func.func private @printMemrefF32(memref<*xf32>)
func.func @cond(%c: i1, %in: memref<?xf32>, %n: index) {
  cf.cond_br %c, ^bb2(%in : memref<?xf32>), ^bb1(%n : index)
^bb1(%k: index):
  %a = memref.alloc(%k) : memref<?xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%a : memref<?xf32>)
  cf.br ^bb2(%a : memref<?xf32>)
^bb2(%m: memref<?xf32>):
  %u = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  %t = arith.constant true
  %f = arith.constant false
  %c3 = arith.constant 3 : index
  %x = arith.constant 5.0 : f32
  %b = memref.alloc(%c3) : memref<?xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<?xf32>)
  call @cond(%t, %b, %c3) : (i1, memref<?xf32>, index) -> ()
  call @cond(%f, %b, %c3) : (i1, memref<?xf32>, index) -> ()
  return
}
