// A call inside scf.for: the callee writes its argument and returns it, so the
// iter_arg is updated in place; a second callee only reads its argument and returns a
// fresh tensor; a third layer calls the loop's function.
func.func @bump(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %0 = tensor.insert %x into %t[%c1] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @sum(%t: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.add ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @loop(%init: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %s = %init) -> (tensor<4xf32>, tensor<4xf32>) {
    %x = tensor.extract %acc[%c0] : tensor<4xf32>
    %y = arith.addf %x, %one : f32
    %b = func.call @bump(%acc, %y) : (tensor<4xf32>, f32) -> tensor<4xf32>
    %t = func.call @sum(%b) : (tensor<4xf32>) -> tensor<4xf32>
    %s2 = linalg.copy ins(%t : tensor<4xf32>) outs(%s : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %b, %s2 : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

func.func @main() {
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = func.call @loop(%a, %c3) : (tensor<4xf32>, index) -> (tensor<4xf32>, tensor<4xf32>)
  %v = tensor.extract %a[%c0] : tensor<4xf32>
  %w = tensor.insert %v into %r#1[%c0] : tensor<4xf32>
  %u0 = tensor.cast %r#0 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %w : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
