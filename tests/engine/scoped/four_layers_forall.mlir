// Four layers, with calls inside scf.forall and scf.for bodies, a callee called from
// two different layers, a callee with two returns (an unstructured body) and an
// argument annotated read-only.
func.func @fill(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %0 = linalg.fill ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @either(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : tensor<4xf32>
^bb2:
  %one = arith.constant 1.0 : f32
  %f = func.call @fill(%b, %one) : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %f : tensor<4xf32>
}

func.func @rows(%m: tensor<4x4xf32>, %x: f32) -> tensor<4x4xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %m) -> (tensor<4x4xf32>) {
    %row = tensor.extract_slice %o[%i, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<4xf32>
    %f = func.call @fill(%row, %x) : (tensor<4xf32>, f32) -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<4x4xf32>
    }
  }
  return %r : tensor<4x4xf32>
}

func.func @middle(%m: tensor<4x4xf32>, %a: tensor<4xf32> {bufferization.writable = false}, %b: tensor<4xf32>, %c: i1) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %r = func.call @rows(%m, %x) : (tensor<4x4xf32>, f32) -> tensor<4x4xf32>
  %e = func.call @either(%a, %b, %c) : (tensor<4xf32>, tensor<4xf32>, i1) -> tensor<4xf32>
  %l = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %e) -> (tensor<4xf32>) {
    %y = tensor.extract %acc[%i] : tensor<4xf32>
    %g = func.call @fill(%acc, %y) : (tensor<4xf32>, f32) -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  }
  return %r, %l : tensor<4x4xf32>, tensor<4xf32>
}

func.func @top(%m: tensor<4x4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
  %true = arith.constant true
  %c0 = arith.constant 0 : index
  %r:2 = func.call @middle(%m, %a, %b, %true) : (tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, i1) -> (tensor<4x4xf32>, tensor<4xf32>)
  %x = tensor.extract %b[%c0] : tensor<4xf32>
  %f = func.call @fill(%b, %x) : (tensor<4xf32>, f32) -> tensor<4xf32>
  %z = tensor.extract %m[%c0, %c0] : tensor<4x4xf32>
  %w = tensor.insert %z into %r#1[%c0] : tensor<4xf32>
  return %r#0, %w : tensor<4x4xf32>, tensor<4xf32>
}

func.func @main() {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<4x4xf32>
  %m = linalg.fill ins(%one : f32) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%two : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %b = linalg.fill ins(%one : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = func.call @top(%m, %a, %b) : (tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>)
  %u0 = tensor.cast %r#0 : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %m : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
