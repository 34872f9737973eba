// A program in one function, so that it runs with function boundaries off too: a loop
// writing a fill's result, a select and an execute_region, printed through read-only
// buffers.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %true = arith.constant true
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
    %x = tensor.extract %acc[%i] : tensor<4xf32>
    %y = arith.addf %x, %x : f32
    %w = tensor.insert %y into %acc[%i] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  %s = arith.select %true, %r, %a : tensor<4xf32>
  %t = scf.execute_region -> tensor<4xf32> {
    %w = tensor.insert %one into %s[%c1] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  %ma = bufferization.to_buffer %a read_only : tensor<4xf32> to memref<4xf32>
  %ua = memref.cast %ma : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
  %mr = bufferization.to_buffer %r read_only : tensor<4xf32> to memref<4xf32>
  %ur = memref.cast %mr : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%ur) : (memref<*xf32>) -> ()
  %mt = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32>
  %ut = memref.cast %mt : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%ut) : (memref<*xf32>) -> ()
  return
}
