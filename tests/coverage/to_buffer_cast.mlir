// Tensors printed through read-only buffers: to_buffer of a function argument, of a
// loop result and of a loop's block argument, each followed by memref.cast.
func.func private @printMemrefF32(memref<*xf32>)

func.func @show(%t: tensor<4xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %z) -> (tensor<4xf32>) {
    %m = bufferization.to_buffer %acc read_only : tensor<4xf32> to memref<4xf32>
    %u = memref.cast %m : memref<4xf32> to memref<*xf32>
    func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %x = tensor.extract %acc[%i] : tensor<4xf32>
    %y = arith.addf %x, %one : f32
    %n = tensor.insert %y into %acc[%i] : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  %m = bufferization.to_buffer %r : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @show(%z) : (tensor<4xf32>) -> ()
  return
}
