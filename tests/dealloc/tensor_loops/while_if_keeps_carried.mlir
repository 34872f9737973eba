// Tensor form of ../while_if_keeps_carried.mlir: the after region's if yields the carried
// tensor or a fresh one, then the carried tensor is read and the if's result written.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %lim = arith.constant 9.0 : f32
  %e0 = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%one : f32) outs(%e0 : tensor<2xf32>) -> tensor<2xf32>
  %r = scf.while (%acc = %init) : (tensor<2xf32>) -> tensor<2xf32> {
    %v = tensor.extract %acc[%c0] : tensor<2xf32>
    %go = arith.cmpf olt, %v, %lim : f32
    scf.condition(%go) %acc : tensor<2xf32>
  } do {
  ^bb0(%b: tensor<2xf32>):
    %v = tensor.extract %b[%c0] : tensor<2xf32>
    %s = tensor.extract %b[%c1] : tensor<2xf32>
    %big = arith.cmpf ogt, %s, %lim : f32
    %nx = scf.if %big -> (tensor<2xf32>) {
      scf.yield %b : tensor<2xf32>
    } else {
      %w = arith.addf %v, %one : f32
      %e = tensor.empty() : tensor<2xf32>
      %f = linalg.fill ins(%w : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
      scf.yield %f : tensor<2xf32>
    }
    %s2 = arith.addf %s, %s : f32
    %v2 = tensor.extract %b[%c0] : tensor<2xf32>
    %v3 = arith.addf %v2, %one : f32
    %n1 = tensor.insert %s2 into %nx[%c1] : tensor<2xf32>
    %n2 = tensor.insert %v3 into %n1[%c0] : tensor<2xf32>
    scf.yield %n2 : tensor<2xf32>
  }
  %m = bufferization.to_buffer %r read_only : tensor<2xf32> to memref<2xf32>
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
