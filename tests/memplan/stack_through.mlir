// Small buffers that leave the place they were made without leaving the function
// (bufferize --promote-buffers-to-stack): %r flows out of both branches of an scf.if
// (one branch's buffer, the other's: either is an alloca) and %x is passed to @scale,
// a function of the module that returns a fresh buffer, never an alias of its argument.
// %q is an alloca on one path and @scale's heap result on the other: only the latter is
// freed. %big is over the 1024-byte limit: it stays on the heap, whichever branch made %r.
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @scale(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %m = linalg.add ins(%a, %a : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %m : tensor<16xf32>
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %x = linalg.fill ins(%one : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = tensor.extract %x[%c0] : tensor<16xf32>
  %p = arith.cmpf olt, %s, %two : f32
  %r = scf.if %p -> (tensor<16xf32>) {
    %e1 = tensor.empty() : tensor<16xf32>
    %a = linalg.fill ins(%two : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
    scf.yield %a : tensor<16xf32>
  } else {
    %e2 = tensor.empty() : tensor<8x2xf32>
    %b = linalg.fill ins(%one : f32) outs(%e2 : tensor<8x2xf32>) -> tensor<8x2xf32>
    %c = tensor.collapse_shape %b [[0, 1]] : tensor<8x2xf32> into tensor<16xf32>
    scf.yield %c : tensor<16xf32>
  }
  %q = scf.if %p -> (tensor<16xf32>) {
    %e3 = tensor.empty() : tensor<16xf32>
    %f = linalg.fill ins(%s : f32) outs(%e3 : tensor<16xf32>) -> tensor<16xf32>
    scf.yield %f : tensor<16xf32>
  } else {
    %g = func.call @scale(%x) : (tensor<16xf32>) -> tensor<16xf32>
    scf.yield %g : tensor<16xf32>
  }
  %big0 = tensor.empty() : tensor<512xf32>
  %big = linalg.fill ins(%s : f32) outs(%big0 : tensor<512xf32>) -> tensor<512xf32>
  %y = func.call @scale(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %z = linalg.add ins(%y, %r : tensor<16xf32>, tensor<16xf32>) outs(%y : tensor<16xf32>) -> tensor<16xf32>
  %u = tensor.cast %z : tensor<16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %uq = tensor.cast %q : tensor<16xf32> to tensor<*xf32>
  call @printMemrefF32(%uq) : (tensor<*xf32>) -> ()
  %ub = tensor.cast %big : tensor<512xf32> to tensor<*xf32>
  call @printMemrefF32(%ub) : (tensor<*xf32>) -> ()
  return
}
