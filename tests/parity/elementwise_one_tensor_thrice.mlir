// A named elementwise op reading one tensor twice and writing it: elementwise, so in
// place everywhere.
func.func @f(%a: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.add ins(%a, %a : tensor<6xf32>, tensor<6xf32>) outs(%a : tensor<6xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}
