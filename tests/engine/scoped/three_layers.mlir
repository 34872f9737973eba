// Three layers: @leaf writes its argument in place and returns it (equivalent),
// @mid passes its argument to @leaf and returns a fresh tensor too, @main reads the
// argument of each call after it (a read-after-write through the callee's write).
func.func @leaf(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %0 = linalg.fill ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @mid(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %b[%c0] : tensor<4xf32>
  %0 = func.call @leaf(%a, %x) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %1 = linalg.add ins(%0, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.fill ins(%two : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = func.call @mid(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %l = func.call @leaf(%b, %one) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %y = tensor.extract %a[%c0] : tensor<4xf32>
  %z = tensor.extract %b[%c0] : tensor<4xf32>
  %s = arith.addf %y, %z : f32
  %w = tensor.insert %s into %r#1[%c0] : tensor<4xf32>
  %u0 = tensor.cast %r#0 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %w : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %l : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
