#id = affine_map<(d0) -> (d0)>
func.func @f(%t: tensor<4xindex>) -> tensor<4xindex> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%t : tensor<4xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 1 : index
    linalg.yield %i : index
  } -> tensor<4xindex>
  return %r : tensor<4xindex>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 0]> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3xf32>, %o: tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32> {
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 1, 1]> : tensor<3xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  return %r : tensor<1x6x6x3xf32>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi32>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<-1> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
// -----
#id = affine_map<(d0) -> (d0)>
func.func @f(%t: tensor<4xindex>) -> tensor<4xindex> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%t : tensor<4xindex>) {
  ^bb0(%o: index):
    %i = linalg.index -1 : index
    linalg.yield %i : index
  } -> tensor<4xindex>
  return %r : tensor<4xindex>
}
// -----
func.func @f(%t: tensor<4xindex>) -> tensor<4xindex> {
  %r = linalg.map outs(%t : tensor<4xindex>) () {
    %i = linalg.index 1 : index
    linalg.yield %i : index
  }
  return %r : tensor<4xindex>
}
// -----
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3xf32>, %o: tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32> {
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<[0, 1]> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3xf32>) outs(%o : tensor<1x6x6x3xf32>) -> tensor<1x6x6x3xf32>
  return %r : tensor<1x6x6x3xf32>
}
// -----
func.func @f(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 0]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
// -----
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
// -----
#id = affine_map<(d0) -> (d0)>
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>], iterator_types = ["parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<8xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<8xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<8xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<8xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2 + 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (3 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 - 1)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<4x4xindex>) -> tensor<4x4xindex> {
  %r = linalg.map outs(%t : tensor<4x4xindex>) () {
    %i = linalg.index 1 : index
    linalg.yield %i : index
  }
  return %r : tensor<4x4xindex>
}
// -----
func.func @f(%t: tensor<4x4xindex>) -> tensor<4x4xindex> {
  %r = linalg.map outs(%t : tensor<4x4xindex>) () {
    %i = linalg.index 2 : index
    linalg.yield %i : index
  }
  return %r : tensor<4x4xindex>
}
// -----
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x?xf32>) -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}
// -----
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<5x4xf32>) outs(%c : tensor<4x?xf32>) -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}
// -----
func.func @f(%t: tensor<4x4xindex>) -> tensor<4x4xindex> {
  %r = linalg.map outs(%t : tensor<4x4xindex>) () {
    %i = linalg.index 7 : index
    linalg.yield %i : index
  }
  return %r : tensor<4x4xindex>
}
// -----
func.func @f(%a: tensor<4x4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce ins(%a : tensor<4x4xf32>) outs(%t : tensor<4xf32>) dimensions = [1] (%x: f32, %y: f32) {
    %i = linalg.index 2 : index
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4x4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce ins(%a : tensor<4x4xf32>) outs(%t : tensor<4xf32>) dimensions = [1] (%x: f32, %y: f32) {
    %i = linalg.index 1 : index
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return %r : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel"]} outs(%t : tensor<4x4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %o : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1)[s0] -> (d0 + s0)>, affine_map<(d0, d1)[s0] -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %o : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %o : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<5xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<5xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %o : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<5xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<5xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: memref<5xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<5xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<4x4xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1 floordiv 2, d0 mod 3)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<2x2xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1 floordiv 2, d0 mod 3)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x2xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%a: tensor<4x4xf32>, %t: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1 - d0 + 3, 2)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%t : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// -----
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1)[s0] -> (d0)>], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d0)>], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0)[s0] -> (d0)>], iterator_types = ["parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// -----
func.func @f(%a: tensor<4xf32>, %t: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}
// -----
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0)[s0] -> (d0, d0)>], iterator_types = ["parallel"]} outs(%t : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
