// tensor.concat of dynamically shaped operands into a static result.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e1 = tensor.empty() : tensor<1x6xf32>
  %a = linalg.fill ins(%one : f32) outs(%e1 : tensor<1x6xf32>) -> tensor<1x6xf32>
  %e2 = tensor.empty() : tensor<3x6xf32>
  %b = linalg.fill ins(%two : f32) outs(%e2 : tensor<3x6xf32>) -> tensor<3x6xf32>
  %da = tensor.cast %a : tensor<1x6xf32> to tensor<?x6xf32>
  %db = tensor.cast %b : tensor<3x6xf32> to tensor<?x6xf32>
  %c = tensor.concat dim(0) %da, %db : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<4x6xf32>
  %m = bufferization.to_buffer %c read_only : tensor<4x6xf32> to memref<4x6xf32>
  %u = memref.cast %m : memref<4x6xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
