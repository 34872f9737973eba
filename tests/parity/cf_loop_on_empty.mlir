// An unstructured loop carrying a tensor that starts as tensor.empty and is written
// each trip.
func.func @f(%v: f32, %n: index) -> tensor<5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<5xf32>
  cf.br ^head(%c0, %e : index, tensor<5xf32>)
^head(%k: index, %t: tensor<5xf32>):
  %more = arith.cmpi slt, %k, %n : index
  cf.cond_br %more, ^body, ^exit
^body:
  %t2 = tensor.insert %v into %t[%k] : tensor<5xf32>
  %k2 = arith.addi %k, %c1 : index
  cf.br ^head(%k2, %t2 : index, tensor<5xf32>)
^exit:
  return %t : tensor<5xf32>
}
