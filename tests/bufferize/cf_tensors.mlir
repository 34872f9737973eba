// cf branches carrying tensors: block arguments become memrefs (identity layout; a
// strided slice passed to a block is cast to it via a copy), the dealloc backend frees
// what the branches allocate (ownership through the block arguments).
#id = affine_map<(d0) -> (d0)>

func.func @print1(%t: tensor<?xf32>) {
  %u = tensor.cast %t : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @iota(%n: index) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    linalg.yield %f : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// either a fresh filled tensor or a slice of the argument joins in ^join, which
// writes into it and returns it
func.func @pick(%c: i1, %t: tensor<8xf32>) -> tensor<4xf32> {
  cf.cond_br %c, ^fresh, ^slice
^fresh:
  %e = tensor.empty() : tensor<4xf32>
  %nine = arith.constant 9.0 : f32
  %f = linalg.fill ins(%nine : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  cf.br ^join(%f : tensor<4xf32>)
^slice:
  %s = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  cf.br ^join(%s : tensor<4xf32>)
^join(%x: tensor<4xf32>):
  %c0 = arith.constant 0 : index
  %m = arith.constant -1.0 : f32
  %y = tensor.insert %m into %x[%c0] : tensor<4xf32>
  return %y : tensor<4xf32>
}

// a cf loop carrying a tensor: doubles %t's elements %n times (insert per element)
func.func @double_n(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^head(%c0, %t : index, tensor<4xf32>)
^head(%k: index, %acc: tensor<4xf32>):
  %more = arith.cmpi slt, %k, %n : index
  cf.cond_br %more, ^body, ^exit(%acc : tensor<4xf32>)
^body:
  %d = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%acc : tensor<4xf32>) {
  ^bb0(%o: f32):
    %two = arith.addf %o, %o : f32
    linalg.yield %two : f32
  } -> tensor<4xf32>
  %k1 = arith.addi %k, %c1 : index
  cf.br ^head(%k1, %d : index, tensor<4xf32>)
^exit(%r: tensor<4xf32>):
  return %r : tensor<4xf32>
}

func.func @main() {
  %true = arith.constant true
  %false = arith.constant false
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %a = call @iota(%c8) : (index) -> tensor<?xf32>
  %a8 = tensor.cast %a : tensor<?xf32> to tensor<8xf32>
  %p = call @pick(%true, %a8) : (i1, tensor<8xf32>) -> tensor<4xf32>
  %q = call @pick(%false, %a8) : (i1, tensor<8xf32>) -> tensor<4xf32>
  %pu = tensor.cast %p : tensor<4xf32> to tensor<?xf32>
  %qu = tensor.cast %q : tensor<4xf32> to tensor<?xf32>
  call @print1(%pu) : (tensor<?xf32>) -> ()
  call @print1(%qu) : (tensor<?xf32>) -> ()
  call @print1(%a) : (tensor<?xf32>) -> ()
  %d = call @double_n(%q, %c2) : (tensor<4xf32>, index) -> tensor<4xf32>
  %du = tensor.cast %d : tensor<4xf32> to tensor<?xf32>
  call @print1(%du) : (tensor<?xf32>) -> ()
  call @print1(%qu) : (tensor<?xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
