// Tensor form of ../loop_if_keeps_carried.mlir: the if yields a fresh tensor or the
// carried one, the body reads the carried one after the if and writes the if's result.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%one : f32) outs(%e0 : tensor<2xf32>) -> tensor<2xf32>
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %init) -> (tensor<2xf32>) {
    %rem = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %nx = scf.if %even -> (tensor<2xf32>) {
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
  %m = bufferization.to_buffer %r read_only : tensor<2xf32> to memref<2xf32>
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
