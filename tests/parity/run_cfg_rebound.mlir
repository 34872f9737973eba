// Executed (tests/test_parity_cases.py): writes in a later block of a CFG region into a
// value defined by a dominating block's argument, where no path from the write reaches
// the read without binding that argument anew (exclusive branches, a loop's head): in
// place, as in mlir-opt. (A path that does reach it: tests/miscompiles/.)
func.func @siblings(%t: tensor<4xf32>, %c: i1, %f: f32, %i: index) -> tensor<4xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = tensor.insert %f into %t[%i] : tensor<4xf32>
  cf.br ^bb3(%a : tensor<4xf32>)
^bb2:
  %e = tensor.extract %t[%i] : tensor<4xf32>
  %s = arith.addf %e, %f : f32
  %b = tensor.insert %s into %t[%i] : tensor<4xf32>
  cf.br ^bb3(%b : tensor<4xf32>)
^bb3(%r: tensor<4xf32>):
  return %r : tensor<4xf32>
}
func.func @fill_loop(%v: f32, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %e0 = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  cf.br ^head(%c0, %e0 : index, tensor<4xf32>)
^head(%k: index, %t: tensor<4xf32>):
  %more = arith.cmpi slt, %k, %n : index
  cf.cond_br %more, ^body, ^exit
^body:
  %t2 = tensor.insert %v into %t[%k] : tensor<4xf32>
  %k2 = arith.addi %k, %c1 : index
  cf.br ^head(%k2, %t2 : index, tensor<4xf32>)
^exit:
  return %t : tensor<4xf32>
}
func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %nine = arith.constant 9.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %a = call @siblings(%t, %true, %five, %c1) : (tensor<4xf32>, i1, f32, index) -> tensor<4xf32>
  %b = call @siblings(%t, %false, %five, %c3) : (tensor<4xf32>, i1, f32, index) -> tensor<4xf32>
  %l = call @fill_loop(%nine, %c3) : (f32, index) -> tensor<4xf32>
  %pa = bufferization.to_buffer %a read_only : tensor<4xf32> to memref<4xf32>
  %pb = bufferization.to_buffer %b read_only : tensor<4xf32> to memref<4xf32>
  %pl = bufferization.to_buffer %l read_only : tensor<4xf32> to memref<4xf32>
  %pt = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %ua = memref.cast %pa : memref<4xf32> to memref<*xf32>
  %ub = memref.cast %pb : memref<4xf32> to memref<*xf32>
  %ul = memref.cast %pl : memref<4xf32> to memref<*xf32>
  %ut = memref.cast %pt : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  call @printMemrefF32(%ul) : (memref<*xf32>) -> ()
  call @printMemrefF32(%ut) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
