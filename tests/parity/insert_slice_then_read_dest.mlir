// Two slices inserted into one destination one after the other; the destination before
// the second insert is read afterwards.
func.func @f(%t: tensor<16xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>, %i: index) -> (tensor<16xf32>, f32) {
  %t1 = tensor.insert_slice %a into %t[0] [4] [1] : tensor<4xf32> into tensor<16xf32>
  %t2 = tensor.insert_slice %b into %t1[8] [4] [1] : tensor<4xf32> into tensor<16xf32>
  %e = tensor.extract %t1[%i] : tensor<16xf32>
  return %t2, %e : tensor<16xf32>, f32
}
