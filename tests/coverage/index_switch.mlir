// scf.index_switch yielding tensors: one case writes a fill's result in place, one
// yields it as is, the default writes a second tensor.
func.func private @printMemrefF32(memref<*xf32>)

func.func @pick(%c: index, %a: tensor<4xf32>, %b: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %w = scf.index_switch %c -> tensor<4xf32>
  case 0 {
    %i = tensor.insert %v into %a[%c] : tensor<4xf32>
    scf.yield %i : tensor<4xf32>
  }
  case 1 {
    scf.yield %a : tensor<4xf32>
  }
  default {
    %i = tensor.insert %v into %b[%c] : tensor<4xf32>
    scf.yield %i : tensor<4xf32>
  }
  return %w : tensor<4xf32>
}

func.func @print(%t: tensor<4xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %nine = arith.constant 9.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %b = linalg.fill ins(%two : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %p = call @pick(%c0, %a, %b, %nine) : (index, tensor<4xf32>, tensor<4xf32>, f32) -> tensor<4xf32>
  %q = call @pick(%c1, %a, %b, %nine) : (index, tensor<4xf32>, tensor<4xf32>, f32) -> tensor<4xf32>
  %r = call @pick(%c2, %a, %b, %nine) : (index, tensor<4xf32>, tensor<4xf32>, f32) -> tensor<4xf32>
  call @print(%p) : (tensor<4xf32>) -> ()
  call @print(%q) : (tensor<4xf32>) -> ()
  call @print(%r) : (tensor<4xf32>) -> ()
  call @print(%a) : (tensor<4xf32>) -> ()
  call @print(%b) : (tensor<4xf32>) -> ()
  return
}
