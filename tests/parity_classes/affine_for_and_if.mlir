// affine.for over a memref and affine.if choosing an index, in custom syntax, around
// tensor code: the affine ops carry no tensors; the tensor write reads an element that
// affine.load produced.
#set = affine_set<(d0)[s0] : (d0 - 2 >= 0, s0 - d0 - 1 >= 0)>
func.func @f(%t: tensor<8xf32>, %m: memref<8xf32>, %n: index) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 step 2 {
    %x = affine.load %m[%i] : memref<8xf32>
    affine.store %x, %m[%i + 1] : memref<8xf32>
  }
  %j = affine.if #set(%n)[%n] -> index {
    affine.yield %n : index
  } else {
    affine.yield %c0 : index
  }
  %y = affine.load %m[%j mod 8] : memref<8xf32>
  %w = tensor.insert %y into %t[%c0] : tensor<8xf32>
  %w2 = tensor.insert %z into %t[%j] : tensor<8xf32>
  return %w, %w2 : tensor<8xf32>, tensor<8xf32>
}
