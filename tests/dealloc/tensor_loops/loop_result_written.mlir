// As loop_if_keeps_carried.mlir, but the if never makes a new tensor: the loop result
// is then the init's buffer, which is written after the loop while the init is read.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant 1.0 : f32
  %five = arith.constant 5.0 : f32
  %e0 = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%one : f32) outs(%e0 : tensor<2xf32>) -> tensor<2xf32>
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %init) -> (tensor<2xf32>) {
    %big = arith.cmpi ugt, %i, %c6 : index
    %nx = scf.if %big -> (tensor<2xf32>) {
      %v = tensor.extract %acc[%c0] : tensor<2xf32>
      %w = arith.addf %v, %one : f32
      %e = tensor.empty() : tensor<2xf32>
      %f = linalg.fill ins(%w : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
      scf.yield %f : tensor<2xf32>
    } else {
      scf.yield %acc : tensor<2xf32>
    }
    %q = tensor.extract %acc[%c1] : tensor<2xf32>
    %q2 = arith.addf %q, %one : f32
    %s = tensor.insert %q2 into %nx[%c1] : tensor<2xf32>
    scf.yield %s : tensor<2xf32>
  }
  %r2 = tensor.insert %five into %r[%c0] : tensor<2xf32>
  %m = bufferization.to_buffer %r2 read_only : tensor<2xf32> to memref<2xf32>
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %m0 = bufferization.to_buffer %init read_only : tensor<2xf32> to memref<2xf32>
  %u0 = memref.cast %m0 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  return
}
