// tensor.splat (dynamic size) and tensor.rank: an alloc filled with the value, memref.rank.
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %x = arith.constant 7.0 : f32
  %s = tensor.splat %x[%c2] : tensor<?x3xf32>
  %r = tensor.rank %s : tensor<?x3xf32>
  %rf = arith.index_cast %r : index to i32
  %f = arith.sitofp %rf : i32 to f32
  %w = tensor.insert %f into %s[%c0, %c0] : tensor<?x3xf32>
  %m = bufferization.to_buffer %w read_only : tensor<?x3xf32> to memref<?x3xf32>
  %u = memref.cast %m : memref<?x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
