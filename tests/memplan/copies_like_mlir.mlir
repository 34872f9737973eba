// Three copies bufferlog places where mlir-opt's tensor copy insertion does (and no larger
// ones): tests/test_memplan.py test_copies_placed_like_mlir_opt.

// Returns a 2x2 view of its argument; never writes it.
func.func @view(%t: tensor<2x8xf32>) -> tensor<2x2xf32> {
  %s = tensor.extract_slice %t[0, 2] [2, 2] [1, 1] : tensor<2x8xf32> to tensor<2x2xf32>
  return %s : tensor<2x2xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  // 1. The call's argument is out of place (the fill below writes the view of it that
  //    @view returns, %a is printed after): the 16-byte result is copied, not the
  //    64-byte argument.
  %e = tensor.empty() : tensor<2x8xf32>
  %a = linalg.fill ins(%one : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = call @view(%a) : (tensor<2x8xf32>) -> tensor<2x2xf32>
  %w = linalg.fill ins(%two : f32) outs(%r : tensor<2x2xf32>) -> tensor<2x2xf32>
  // 2. A slice of a constant, out of place, that the transpose overwrites whole: its
  //    buffer is allocated, not copied.
  %k = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %s = tensor.extract_slice %k[0, 2] [2, 2] [1, 1] : tensor<2x4xf32> to tensor<2x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x2xf32>) outs(%s : tensor<2x2xf32>) permutation = [1, 0]
  // 3. The loop yields an scf.if that passes on either a fresh buffer or the iteration
  //    argument: no copy at the yield.
  %e4 = tensor.empty() : tensor<4xf32>
  %i0 = linalg.fill ins(%one : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%it = %i0) -> (tensor<4xf32>) {
    %odd = arith.cmpi eq, %i, %c1 : index
    %n = scf.if %odd -> (tensor<4xf32>) {
      %f = tensor.empty() : tensor<4xf32>
      %g = linalg.map { arith.addf } ins(%it, %it : tensor<4xf32>, tensor<4xf32>) outs(%f : tensor<4xf32>)
      scf.yield %g : tensor<4xf32>
    } else {
      scf.yield %it : tensor<4xf32>
    }
    scf.yield %n : tensor<4xf32>
  }
  %ua = tensor.cast %a : tensor<2x8xf32> to tensor<*xf32>
  call @printMemrefF32(%ua) : (tensor<*xf32>) -> ()
  %ut = tensor.cast %t : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%ut) : (tensor<*xf32>) -> ()
  %ul = tensor.cast %l : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%ul) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
