// Callees whose results alias their arguments in every way a summary tells: @pick
// returns either argument (an alias, not equivalent), @dup returns one tensor twice
// (both results one buffer), @slice returns a slice of its argument; @use writes
// through each and reads the arguments afterwards; @main calls @use.
func.func @pick(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %0 = scf.if %c -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

func.func @dup(%a: tensor<4xf32>, %x: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = linalg.fill ins(%x : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0, %0 : tensor<4xf32>, tensor<4xf32>
}

func.func @slice(%a: tensor<8xf32>) -> tensor<4xf32> {
  %0 = tensor.extract_slice %a[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @use(%a: tensor<4xf32>, %b: tensor<4xf32>, %big: tensor<8xf32>, %c: i1) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 5.0 : f32
  %p = func.call @pick(%a, %b, %c) : (tensor<4xf32>, tensor<4xf32>, i1) -> tensor<4xf32>
  %p2 = tensor.insert %x into %p[%c0] : tensor<4xf32>
  %d:2 = func.call @dup(%b, %x) : (tensor<4xf32>, f32) -> (tensor<4xf32>, tensor<4xf32>)
  %d2 = tensor.insert %x into %d#0[%c0] : tensor<4xf32>
  %y = tensor.extract %d#1[%c0] : tensor<4xf32>
  %s = func.call @slice(%big) : (tensor<8xf32>) -> tensor<4xf32>
  %s2 = linalg.fill ins(%y : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %z = tensor.extract %big[%c0] : tensor<8xf32>
  %w = tensor.extract %a[%c0] : tensor<4xf32>
  %q = arith.addf %z, %w : f32
  %s3 = tensor.insert %q into %s2[%c0] : tensor<4xf32>
  return %p2, %d2, %s3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

func.func @main() {
  %true = arith.constant true
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.fill ins(%two : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %big = linalg.fill ins(%two : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %r:3 = func.call @use(%a, %b, %big, %true) : (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>, i1) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  %u0 = tensor.cast %r#0 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
