// A read-after-write conflict inside a function a @main calls: the callee's argument
// is written in place, the copy is in the caller.
func.func @write(%t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %r = tensor.insert %v into %t[%c1] : tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @main() {
  %one = arith.constant 1.0 : f32
  %nine = arith.constant 9.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %w = call @write(%a, %nine) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %ua = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%ua) : (tensor<*xf32>) -> ()
  %uw = tensor.cast %w : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%uw) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
