// tensor.pad (constant, dynamic-shape, position-dependent padding) and expand_shape /
// collapse_shape of strided slices: reshapes of contiguous-enough views must not copy,
// a truly non-collapsible one must (into a fresh identity buffer).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// 4x6 with a[i][j] = 10*i + j
func.func @iota(%n: index) -> tensor<?x6xf32> {
  %e = tensor.empty(%n) : tensor<?x6xf32>
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x6xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %m = arith.muli %ii, %c10 : i64
    %s = arith.addi %m, %jj : i64
    %f = arith.sitofp %s : i64 to f32
    linalg.yield %f : f32
  } -> tensor<?x6xf32>
  return %r : tensor<?x6xf32>
}

// expand a strided slice in place, scale it, collapse it back, insert it back
func.func @scale_block(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s = tensor.extract_slice %a[1, 1] [3, 4] [1, 1] : tensor<4x6xf32> to tensor<3x4xf32>
  %x = tensor.expand_shape %s [[0], [1, 2]] output_shape [3, 2, 2] : tensor<3x4xf32> into tensor<3x2x2xf32>
  %two = arith.constant 2.0 : f32
  %y = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%x : tensor<3x2x2xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 2 : index
    %kk = arith.index_cast %k : index to i64
    %kf = arith.sitofp %kk : i64 to f32
    %m = arith.mulf %o, %two : f32
    %r = arith.addf %m, %kf : f32
    linalg.yield %r : f32
  } -> tensor<3x2x2xf32>
  %c = tensor.collapse_shape %y [[0], [1, 2]] : tensor<3x2x2xf32> into tensor<3x4xf32>
  %r = tensor.insert_slice %c into %a[1, 1] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

func.func @sum3(%t: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = tensor.extract %t[%c0] : tensor<3xf32>
  %b = tensor.extract %t[%c1] : tensor<3xf32>
  %c = tensor.extract %t[%c2] : tensor<3xf32>
  %ab = arith.addf %a, %b : f32
  %r = arith.addf %ab, %c : f32
  return %r : f32
}

func.func @print2(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %half = arith.constant 0.5 : f32
  %d = call @iota(%c4) : (index) -> tensor<?x6xf32>
  %a = tensor.cast %d : tensor<?x6xf32> to tensor<4x6xf32>

  // 1. constant pad of a strided slice (static shapes)
  %s0 = tensor.extract_slice %a[0, 1] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %p0 = tensor.pad %s0 low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %half : f32
  } : tensor<2x3xf32> to tensor<3x5xf32>
  %u0 = tensor.cast %p0 : tensor<3x5xf32> to tensor<?x?xf32>
  call @print2(%u0) : (tensor<?x?xf32>) -> ()

  // 2. dynamic pad amounts and shape, padding computed from the position
  %s1 = tensor.extract_slice %a[1, 2] [%c2, 3] [1, 1] : tensor<4x6xf32> to tensor<?x3xf32>
  %p1 = tensor.pad %s1 low[%c1, 1] high[0, %c2] {
  ^bb0(%i: index, %j: index):
    %ij = arith.addi %i, %j : index
    %v = arith.index_cast %ij : index to i64
    %f = arith.sitofp %v : i64 to f32
    %g = arith.negf %f : f32
    tensor.yield %g : f32
  } : tensor<?x3xf32> to tensor<?x?xf32>
  call @print2(%p1) : (tensor<?x?xf32>) -> ()

  // 3. collapse of a unit-dim strided row (collapsible) and of a non-contiguous block
  //    (needs a copy); expand of a column-strided slice
  %r = tensor.extract_slice %a[2, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<1x6xf32>
  %rc = tensor.collapse_shape %r [[0, 1]] : tensor<1x6xf32> into tensor<6xf32>
  %re = tensor.expand_shape %rc [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  %u3 = tensor.cast %re : tensor<2x3xf32> to tensor<?x?xf32>
  call @print2(%u3) : (tensor<?x?xf32>) -> ()
  %blk = tensor.extract_slice %a[0, 1] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %bc = tensor.collapse_shape %blk [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %bx = tensor.expand_shape %bc [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  %u4 = tensor.cast %bx : tensor<3x2xf32> to tensor<?x?xf32>
  call @print2(%u4) : (tensor<?x?xf32>) -> ()
  %col = tensor.extract_slice %a[0, 3] [3, 1] [1, 1] : tensor<4x6xf32> to tensor<3x1xf32>
  %cc = tensor.collapse_shape %col [[0, 1]] : tensor<3x1xf32> into tensor<3xf32>
  %cs = call @sum3(%cc) : (tensor<3xf32>) -> f32
  %one = tensor.extract_slice %a[3, 5] [1, 1] [1, 1] : tensor<4x6xf32> to tensor<1x1xf32>
  %sc = tensor.collapse_shape %one [] : tensor<1x1xf32> into tensor<f32>
  %sv = tensor.extract %sc[] : tensor<f32>
  %pair = tensor.from_elements %cs, %sv : tensor<1x2xf32>
  %u8 = tensor.cast %pair : tensor<1x2xf32> to tensor<?x?xf32>
  call @print2(%u8) : (tensor<?x?xf32>) -> ()

  // 4. dynamic-size collapse / expand of a strided slice
  %dy = tensor.extract_slice %a[1, 0] [%c2, 6] [1, 1] : tensor<4x6xf32> to tensor<?x6xf32>
  %dc = tensor.collapse_shape %dy [[0, 1]] : tensor<?x6xf32> into tensor<?xf32>
  %n4 = arith.constant 4 : index
  %de = tensor.expand_shape %dc [[0, 1]] output_shape [%n4, 3] : tensor<?xf32> into tensor<?x3xf32>
  %u5 = tensor.cast %de : tensor<?x3xf32> to tensor<?x?xf32>
  call @print2(%u5) : (tensor<?x?xf32>) -> ()

  // 5. in-place update through expand/collapse of a slice
  %b = call @scale_block(%a) : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %u6 = tensor.cast %b : tensor<4x6xf32> to tensor<?x?xf32>
  call @print2(%u6) : (tensor<?x?xf32>) -> ()
  // the padded tensor after the source changed: still the old values
  %p2 = tensor.pad %blk low[0, 1] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %half : f32
  } : tensor<2x3xf32> to tensor<3x4xf32>
  %u7 = tensor.cast %p2 : tensor<3x4xf32> to tensor<?x?xf32>
  call @print2(%u7) : (tensor<?x?xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
