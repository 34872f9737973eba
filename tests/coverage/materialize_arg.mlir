// materialize_in_destination into a function argument (the caller's buffer).
func.func private @printMemrefF32(memref<*xf32>)

func.func @fill_into(%dst: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = bufferization.materialize_in_destination %f in %dst : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @print(%t: tensor<4xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = call @fill_into(%a, %three) : (tensor<4xf32>, f32) -> tensor<4xf32>
  call @print(%a) : (tensor<4xf32>) -> ()
  call @print(%b) : (tensor<4xf32>) -> ()
  return
}
