// A recursive function (analysed last, without a summary) calling a decided callee
// that writes its argument, and a caller of the recursive one: the last layer is
// scoped too.
func.func @scale(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %0 = linalg.fill ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @rec(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %t[%c0] : tensor<4xf32>
  %s = func.call @scale(%t, %x) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %stop = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %stop -> (tensor<4xf32>) {
    scf.yield %s : tensor<4xf32>
  } else {
    %m = arith.subi %n, %c1 : index
    %d = func.call @rec(%s, %m) : (tensor<4xf32>, index) -> tensor<4xf32>
    scf.yield %d : tensor<4xf32>
  }
  %y = tensor.extract %t[%c1] : tensor<4xf32>
  %r2 = tensor.insert %y into %r[%c1] : tensor<4xf32>
  return %r2 : tensor<4xf32>
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %r = func.call @rec(%a, %c2) : (tensor<4xf32>, index) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
