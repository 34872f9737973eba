// scf.execute_region yielding tensors: one written inside, one passed through.
func.func private @printMemrefF32(memref<*xf32>)

func.func @print(%t: tensor<4xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = scf.execute_region -> (tensor<4xf32>, tensor<4xf32>) {
    %w = tensor.insert %five into %a[%c2] : tensor<4xf32>
    scf.yield %w, %a : tensor<4xf32>, tensor<4xf32>
  }
  %s = scf.execute_region -> tensor<4xf32> {
    %x = tensor.extract %r#0[%c2] : tensor<4xf32>
    %y = arith.addf %x, %x : f32
    %w = tensor.insert %y into %r#0[%c2] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  call @print(%r#0) : (tensor<4xf32>) -> ()
  call @print(%r#1) : (tensor<4xf32>) -> ()
  call @print(%s) : (tensor<4xf32>) -> ()
  return
}
