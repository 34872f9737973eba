// An external function returns two tensors that may share its argument's buffer; the
// caller writes one result, then prints it, the other result and the argument. The
// execution test links bodies of four kinds into the bufferized output and into the
// reference's input alike: the argument twice, the argument written then twice, the
// argument and a fresh copy, two fresh copies.
func.func private @split(tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %nine = arith.constant 9.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = func.call @split(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %w = tensor.insert %nine into %r#0[%c0] : tensor<4xf32>
  %mw = bufferization.to_buffer %w read_only : tensor<4xf32> to memref<4xf32>
  %pw = memref.cast %mw : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pw) : (memref<*xf32>) -> ()
  %m1 = bufferization.to_buffer %r#1 read_only : tensor<4xf32> to memref<4xf32>
  %p1 = memref.cast %m1 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%p1) : (memref<*xf32>) -> ()
  %ma = bufferization.to_buffer %a read_only : tensor<4xf32> to memref<4xf32>
  %pa = memref.cast %ma : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pa) : (memref<*xf32>) -> ()
  return
}
