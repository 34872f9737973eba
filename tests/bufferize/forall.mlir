// scf.forall with shared_outs: parallel_insert_slice of a slice written in place (no copy),
// of a fresh tile (a copy into the shared buffer), a shared_out whose value is read after
// the loop (so the loop must not write it in place), temporaries allocated per iteration,
// and two dynamically shaped shared_outs.
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

// each of 4 iterations scales its 2-element block in place
func.func @scale_blocks(%t: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    %c2 = arith.constant 2 : index
    %off = arith.muli %i, %c2 : index
    %s = tensor.extract_slice %o[%off] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %k = arith.constant 3.0 : f32
    %m = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%s : tensor<2xf32>) {
    ^bb0(%x: f32):
      %y = arith.mulf %x, %k : f32
      linalg.yield %y : f32
    } -> tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[%off] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %a = call @iota(%c8) : (index) -> tensor<?xf32>
  %a8 = tensor.cast %a : tensor<?xf32> to tensor<8xf32>

  // 1. a fresh tile per iteration (from_elements) inserted into a copy of %a (%a is
  //    printed afterwards, so the shared_out is out of place)
  %r1 = scf.forall (%i) in (4) shared_outs(%o = %a8) -> (tensor<8xf32>) {
    %c2 = arith.constant 2 : index
    %off = arith.muli %i, %c2 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %neg = arith.negf %f : f32
    %tile = tensor.from_elements %neg, %f : tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %tile into %o[%off] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  %u1 = tensor.cast %r1 : tensor<8xf32> to tensor<?xf32>
  call @print1(%u1) : (tensor<?xf32>) -> ()
  call @print1(%a) : (tensor<?xf32>) -> ()

  // 2. in-place block update through a function (shared_out is the argument)
  %b = call @iota(%c8) : (index) -> tensor<?xf32>
  %b8 = tensor.cast %b : tensor<?xf32> to tensor<8xf32>
  %r2 = call @scale_blocks(%b8) : (tensor<8xf32>) -> tensor<8xf32>
  %u2 = tensor.cast %r2 : tensor<8xf32> to tensor<?xf32>
  call @print1(%u2) : (tensor<?xf32>) -> ()

  // 3. two dynamically shaped shared_outs, each iteration writes one element of each
  //    (reading the other's input), the first from a slice of a per-iteration temporary
  %x = call @iota(%c3) : (index) -> tensor<?xf32>
  %y = tensor.empty(%c3) : tensor<?xf32>
  %r3:2 = scf.forall (%i) in (%c3) shared_outs(%p = %x, %q = %y) -> (tensor<?xf32>, tensor<?xf32>) {
    %v = tensor.extract %a[%i] : tensor<?xf32>
    %tmp = tensor.empty() : tensor<4xf32>
    %tf = linalg.fill ins(%v : f32) outs(%tmp : tensor<4xf32>) -> tensor<4xf32>
    %one = tensor.extract_slice %tf[1] [1] [1] : tensor<4xf32> to tensor<1xf32>
    %w = tensor.extract %p[%i] : tensor<?xf32>
    %w2 = arith.addf %w, %v : f32
    %q1 = tensor.from_elements %w2 : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %one into %p[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
      tensor.parallel_insert_slice %q1 into %q[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
    }
  }
  call @print1(%r3#0) : (tensor<?xf32>) -> ()
  call @print1(%r3#1) : (tensor<?xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
