// tensor.generate (static and dynamic shapes, a body reading a captured tensor) and
// tensor.reshape (identity-layout source: a view; a strided slice: copied first; a
// reshape written in place / out of place).
func.func @print2(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// g[i][j] = 10*i + j + t[j mod 3]
func.func @gen(%n: index, %t: tensor<3xf32>) -> tensor<?x6xf32> {
  %g = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %c10 = arith.constant 10 : index
    %c3 = arith.constant 3 : index
    %m = arith.muli %i, %c10 : index
    %s = arith.addi %m, %j : index
    %v = arith.index_cast %s : index to i64
    %f = arith.sitofp %v : i64 to f32
    %k = arith.remui %j, %c3 : index
    %e = tensor.extract %t[%k] : tensor<3xf32>
    %r = arith.addf %f, %e : f32
    tensor.yield %r : f32
  } : tensor<?x6xf32>
  return %g : tensor<?x6xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c12 = arith.constant 12 : index
  %t = arith.constant dense<[0.5, 0.25, 0.125]> : tensor<3xf32>

  // 1. dynamic generate, printed
  %g = call @gen(%c4, %t) : (index, tensor<3xf32>) -> tensor<?x6xf32>
  %u0 = tensor.cast %g : tensor<?x6xf32> to tensor<?x?xf32>
  call @print2(%u0) : (tensor<?x?xf32>) -> ()

  // 2. static generate with a constant body
  %s = tensor.generate {
  ^bb0(%i: index, %j: index):
    %seven = arith.constant 7.0 : f32
    tensor.yield %seven : f32
  } : tensor<2x3xf32>
  %u1 = tensor.cast %s : tensor<2x3xf32> to tensor<?x?xf32>
  call @print2(%u1) : (tensor<?x?xf32>) -> ()

  // 3. reshape of an identity buffer (a view), then written through: the source is read
  //    afterwards, so the write goes out of place
  %a = tensor.cast %g : tensor<?x6xf32> to tensor<4x6xf32>
  %shape = tensor.from_elements %c3, %c2, %c4 : tensor<3xindex>
  %r = tensor.reshape %a(%shape) : (tensor<4x6xf32>, tensor<3xindex>) -> tensor<?x?x?xf32>
  %one = arith.constant 1.0 : f32
  %r2 = tensor.insert %one into %r[%c1, %c1, %c1] : tensor<?x?x?xf32>
  %flat = tensor.from_elements %c12, %c2 : tensor<2xindex>
  %rr = tensor.reshape %r2(%flat) : (tensor<?x?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  call @print2(%rr) : (tensor<?x?xf32>) -> ()
  %u2 = tensor.cast %a : tensor<4x6xf32> to tensor<?x?xf32>
  call @print2(%u2) : (tensor<?x?xf32>) -> ()

  // 4. reshape of a strided slice (not identity: copied into an identity buffer first)
  %sl = tensor.extract_slice %a[1, 1] [2, 4] [1, 1] : tensor<4x6xf32> to tensor<2x4xf32>
  %s8 = tensor.from_elements %c4, %c2 : tensor<2xindex>
  %rs = tensor.reshape %sl(%s8) : (tensor<2x4xf32>, tensor<2xindex>) -> tensor<4x2xf32>
  %u3 = tensor.cast %rs : tensor<4x2xf32> to tensor<?x?xf32>
  call @print2(%u3) : (tensor<?x?xf32>) -> ()

  // 5. in-place write through a reshape of a fresh generate (source dead afterwards)
  %h = tensor.generate %c2 {
  ^bb0(%i: index, %j: index):
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %x = arith.subi %ii, %jj : i64
    %f = arith.sitofp %x : i64 to f32
    tensor.yield %f : f32
  } : tensor<?x6xf32>
  %s43 = tensor.from_elements %c4, %c3 : tensor<2xindex>
  %hr = tensor.reshape %h(%s43) : (tensor<?x6xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  %two = arith.constant 2.0 : f32
  %hf = linalg.fill ins(%two : f32) outs(%hr : tensor<?x?xf32>) -> tensor<?x?xf32>
  %hx = tensor.insert %one into %hf[%c0, %c0] : tensor<?x?xf32>
  call @print2(%hx) : (tensor<?x?xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
