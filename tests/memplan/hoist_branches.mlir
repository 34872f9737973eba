// Allocations in the branches of scf.if ops (bufferize --hoist-to-dominator):
// %r1: both branches make a fresh 64xf32 result -> one allocation before the scf.if;
// %r2: both branches use a local 16xf32 temporary and allocate nothing after it -> one
//      allocation before the scf.if (small and local: the stack with --plan all);
// %r3: only one branch allocates -> stays (hoisting would allocate on the other path);
// %r4: the local 8xf32 temporary is followed by another allocation in its branch -> stays
//      (freed after the scf.if, it would be held across that allocation).
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %x = linalg.fill ins(%one : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = tensor.extract %x[%c0] : tensor<64xf32>
  %p = arith.cmpf olt, %s, %two : f32
  %r1 = scf.if %p -> (tensor<64xf32>) {
    %e1 = tensor.empty() : tensor<64xf32>
    %a = linalg.add ins(%x, %x : tensor<64xf32>, tensor<64xf32>) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
    scf.yield %a : tensor<64xf32>
  } else {
    %e2 = tensor.empty() : tensor<64xf32>
    %m = linalg.mul ins(%x, %x : tensor<64xf32>, tensor<64xf32>) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
    scf.yield %m : tensor<64xf32>
  }
  %r2 = scf.if %p -> (f32) {
    %t1 = tensor.empty() : tensor<16xf32>
    %f1 = linalg.fill ins(%s : f32) outs(%t1 : tensor<16xf32>) -> tensor<16xf32>
    %v1 = tensor.extract %f1[%c0] : tensor<16xf32>
    scf.yield %v1 : f32
  } else {
    %t2 = tensor.empty() : tensor<16xf32>
    %f2 = linalg.fill ins(%two : f32) outs(%t2 : tensor<16xf32>) -> tensor<16xf32>
    %v2 = tensor.extract %f2[%c0] : tensor<16xf32>
    scf.yield %v2 : f32
  }
  %r3 = scf.if %p -> (tensor<64xf32>) {
    %e3 = tensor.empty() : tensor<64xf32>
    %n = linalg.fill ins(%r2 : f32) outs(%e3 : tensor<64xf32>) -> tensor<64xf32>
    scf.yield %n : tensor<64xf32>
  } else {
    scf.yield %x : tensor<64xf32>
  }
  %r4 = scf.if %p -> (tensor<64xf32>) {
    %t4 = tensor.empty() : tensor<8xf32>
    %f4 = linalg.fill ins(%two : f32) outs(%t4 : tensor<8xf32>) -> tensor<8xf32>
    %v4 = tensor.extract %f4[%c0] : tensor<8xf32>
    %e4 = tensor.empty() : tensor<64xf32>
    %g4 = linalg.fill ins(%v4 : f32) outs(%e4 : tensor<64xf32>) -> tensor<64xf32>
    scf.yield %g4 : tensor<64xf32>
  } else {
    %t5 = tensor.empty() : tensor<8xf32>
    %f5 = linalg.fill ins(%one : f32) outs(%t5 : tensor<8xf32>) -> tensor<8xf32>
    %v5 = tensor.extract %f5[%c0] : tensor<8xf32>
    %e5 = tensor.empty() : tensor<64xf32>
    %g5 = linalg.fill ins(%v5 : f32) outs(%e5 : tensor<64xf32>) -> tensor<64xf32>
    scf.yield %g5 : tensor<64xf32>
  }
  %u1 = tensor.cast %r1 : tensor<64xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r3 : tensor<64xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r4 : tensor<64xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
