// Two functions call each other; a third calls into the cycle and writes what it returns
// while returning its own argument too.
// two recursive functions; a caller writes into what the call returns
func.func @ping(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  } else {
    %s = func.call @pong(%t, %n) : (tensor<4xf32>, index) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @pong(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  %k = arith.subi %n, %c1 : index
  %w = tensor.insert %f into %t[%k] : tensor<4xf32>
  %s = func.call @ping(%w, %k) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 5.0 : f32
  %b = func.call @ping(%a, %c2) : (tensor<4xf32>, index) -> tensor<4xf32>
  %w = tensor.insert %f into %b[%c0] : tensor<4xf32>
  return %w, %a : tensor<4xf32>, tensor<4xf32>
}
