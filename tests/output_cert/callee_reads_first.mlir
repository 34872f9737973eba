// @peek reads element 0 of its argument before it fills it: the insert of 9 into %t must
// not go into the buffer @peek(%t) reads.
// Right: @peek(%t) gives 1 + 1, @peek(%w) gives 9 + 9, four times each.
func.func @peek(%t: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<4xf32>
  %f = linalg.fill ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%f, %f : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %nine = arith.constant 9.0 : f32
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.copy ins(%cst : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %w = tensor.insert %nine into %t[%c0] : tensor<4xf32>
  %r = func.call @peek(%t) : (tensor<4xf32>) -> tensor<4xf32>
  %r2 = func.call @peek(%w) : (tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %r2 : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
