// arith.index_cast of tensors: the cast's result shares its operand's buffer, so a later
// write into the operand copies while the cast is read after it; a cast of a fresh tensor
// written afterwards stays in place.
func.func @f(%t: tensor<4xi64>, %i: index) -> (tensor<4xindex>, tensor<4xi64>, tensor<4xi32>) {
  %c3 = arith.constant 3 : i64
  %c9 = arith.constant 9 : index
  %r = arith.index_cast %t : tensor<4xi64> to tensor<4xindex>
  %w = tensor.insert %c3 into %t[%i] : tensor<4xi64>
  %x = tensor.extract %r[%i] : tensor<4xindex>
  %e = tensor.empty() : tensor<4xindex>
  %f = linalg.fill ins(%x : index) outs(%e : tensor<4xindex>) -> tensor<4xindex>
  %g = arith.index_cast %f : tensor<4xindex> to tensor<4xi32>
  %h = tensor.insert %c9 into %f[%i] : tensor<4xindex>
  return %h, %w, %g : tensor<4xindex>, tensor<4xi64>, tensor<4xi32>
}
