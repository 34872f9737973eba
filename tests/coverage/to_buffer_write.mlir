// A to_buffer without read_only may be written through: the store into it must not
// change the tensor %a read afterwards (mlir-opt decides the operand out of place),
// while a read-only one of the same tensor needs no copy.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %m = bufferization.to_buffer %a : tensor<4xf32> to memref<4xf32>
  memref.store %five, %m[%c0] : memref<4xf32>
  %um = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%um) : (memref<*xf32>) -> ()
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %w = tensor.insert %x into %a[%c0] : tensor<4xf32>
  %r = bufferization.to_buffer %w read_only : tensor<4xf32> to memref<4xf32>
  %ur = memref.cast %r : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
  return
}
