// A loop of blocks whose body writes a copy of its block argument each run (the argument
// is read after the write) and hands the copy to the next run: the argument it replaces
// is freed, the copy is not. Right: x = [2, 2, 2, 2]; each run i sets w[i] = x[0], then
// w[0] = x[i] + x[0]: [4, 2, 2, 2], [6, 4, 2, 2], [8, 4, 6, 2].
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%two : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  cf.br ^loop(%c0, %a : index, tensor<4xf32>)
^loop(%i: index, %x: tensor<4xf32>):
  %old = tensor.extract %x[%c0] : tensor<4xf32>
  %w = tensor.insert %old into %x[%i] : tensor<4xf32>
  %p = tensor.extract %x[%i] : tensor<4xf32>
  %q = arith.addf %p, %old : f32
  %w2 = tensor.insert %q into %w[%c0] : tensor<4xf32>
  %k = arith.addi %i, %c1 : index
  %go = arith.cmpi ult, %k, %c3 : index
  cf.cond_br %go, ^loop(%k, %w2 : index, tensor<4xf32>), ^done(%w2 : tensor<4xf32>)
^done(%r: tensor<4xf32>):
  %m = bufferization.to_buffer %r read_only : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
