// arith.select between two tensors, then a write into the selected one: neither
// operand may be overwritten while it is still read.
func.func private @printMemrefF32(memref<*xf32>)

func.func @pick(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.select %c, %a, %b : tensor<4xf32>
  %w = tensor.insert %v into %s[%c0] : tensor<4xf32>
  return %w : tensor<4xf32>
}

func.func @print(%t: tensor<4xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %nine = arith.constant 9.0 : f32
  %true = arith.constant true
  %false = arith.constant false
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %b = linalg.fill ins(%two : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %p = call @pick(%true, %a, %b, %nine) : (i1, tensor<4xf32>, tensor<4xf32>, f32) -> tensor<4xf32>
  %q = call @pick(%false, %a, %b, %nine) : (i1, tensor<4xf32>, tensor<4xf32>, f32) -> tensor<4xf32>
  %s = arith.select %true, %a, %b : tensor<4xf32>
  %t = tensor.insert %nine into %s[%c1] : tensor<4xf32>
  call @print(%p) : (tensor<4xf32>) -> ()
  call @print(%q) : (tensor<4xf32>) -> ()
  call @print(%t) : (tensor<4xf32>) -> ()
  call @print(%a) : (tensor<4xf32>) -> ()
  call @print(%b) : (tensor<4xf32>) -> ()
  return
}
