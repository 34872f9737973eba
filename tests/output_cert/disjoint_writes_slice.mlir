// An insert into a slice of %a (elements 4..7), then that slice inserted into %a at 0..3:
// the insert_slice's destination passes elements 4..7 of the ORIGINAL %a through.
func.func @main() {
  %c2 = arith.constant 2 : index
  %k = arith.constant 9.0 : f32
  %cst = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.copy ins(%cst : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = tensor.extract_slice %a[4] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %s2 = tensor.insert %k into %s[%c2] : tensor<4xf32>
  %r = tensor.insert_slice %s2 into %a[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
