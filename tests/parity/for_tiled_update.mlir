// The tiling pattern: each iteration takes a tile of the iter_arg, computes on it and
// inserts it back at the same place; the loop's input is read after the loop.
func.func @f(%t: tensor<64xf32>, %v: f32, %n: index) -> (tensor<64xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %k = %c0 to %n step %c8 iter_args(%x = %t) -> tensor<64xf32> {
    %s = tensor.extract_slice %x[%k] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %f = linalg.fill ins(%v : f32) outs(%s : tensor<8xf32>) -> tensor<8xf32>
    %x2 = tensor.insert_slice %f into %x[%k] [8] [1] : tensor<8xf32> into tensor<64xf32>
    scf.yield %x2 : tensor<64xf32>
  }
  %e = tensor.extract %t[%c0] : tensor<64xf32>
  return %r, %e : tensor<64xf32>, f32
}
