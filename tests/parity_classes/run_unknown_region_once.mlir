// one-shot: bufferize-function-boundaries allow-unknown-ops
// Two unknown ops run a region on their operand (the execution test inlines each region:
// one behaviour such an op may have). The first writes its region's argument and yields
// it; the second, without results, writes its argument. Their operand is
// written and printed after them: no write inside may reach it.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
  %nine = arith.constant 9.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %u = "foo.apply"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    %w = tensor.insert %nine into %x[%c0] : tensor<4xf32>
    "foo.yield"(%w) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  "foo.apply"(%a) ({
  ^bb0(%y: tensor<4xf32>):
    %k = tensor.extract %y[%c0] : tensor<4xf32>
    %z = arith.addf %k, %nine : f32
    %w2 = tensor.insert %z into %y[%c2] : tensor<4xf32>
    %w3 = tensor.insert %z into %w2[%c1] : tensor<4xf32>
    "foo.yield"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  %b = tensor.insert %nine into %a[%c1] : tensor<4xf32>
  %mu = bufferization.to_buffer %u read_only : tensor<4xf32> to memref<4xf32>
  %pu = memref.cast %mu : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  %mb = bufferization.to_buffer %b read_only : tensor<4xf32> to memref<4xf32>
  %pb = memref.cast %mb : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pb) : (memref<*xf32>) -> ()
  return
}
