// A recursive function writes its argument before calling itself and reads the written
// tensor after the call: the call reads and writes its operand (no summary), so the read
// after it conflicts and the call's operand goes out of place.
func.func @rec(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  } else {
    %k = arith.subi %n, %c1 : index
    %w = tensor.insert %one into %t[%k] : tensor<4xf32>
    %s = func.call @rec(%w, %k) : (tensor<4xf32>, index) -> tensor<4xf32>
    %x = tensor.extract %w[%c0] : tensor<4xf32>
    %y = tensor.insert %x into %s[%c1] : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
