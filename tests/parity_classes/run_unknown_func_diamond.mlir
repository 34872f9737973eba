// one-shot: bufferize-function-boundaries=false
// Function boundaries off: the later blocks' arguments are not writable, so the writes
// into them copy, and the tensors flowing in stay as they were (printed at the end).
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %nine = arith.constant 9.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %b = linalg.fill ins(%two : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %k = tensor.extract %a[%c0] : tensor<4xf32>
  %pick = arith.cmpf olt, %k, %two : f32
  cf.cond_br %pick, ^left, ^right
^left:
  cf.br ^join(%a : tensor<4xf32>)
^right:
  cf.br ^join(%b : tensor<4xf32>)
^join(%x: tensor<4xf32>):
  %w = tensor.insert %nine into %x[%c1] : tensor<4xf32>
  cf.br ^last(%w : tensor<4xf32>)
^last(%y: tensor<4xf32>):
  %w2 = tensor.insert %nine into %y[%c0] : tensor<4xf32>
  %m = bufferization.to_buffer %w2 read_only : tensor<4xf32> to memref<4xf32>
  %p = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  %ma = bufferization.to_buffer %a read_only : tensor<4xf32> to memref<4xf32>
  %pa = memref.cast %ma : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pa) : (memref<*xf32>) -> ()
  %mw = bufferization.to_buffer %w read_only : tensor<4xf32> to memref<4xf32>
  %pw = memref.cast %mw : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pw) : (memref<*xf32>) -> ()
  return
}
