// Tensor program in the shape tiling leaves behind: affine.min for the last partial
// tile, affine.apply for offsets, slices of a loop-carried tensor written back.
#tile_size = affine_map<(d0)[s0] -> (4, s0 - d0)>
#next = affine_map<(d0) -> (d0 + 1)>
func.func @scale_tiles(%t: tensor<?xf32>, %f: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %t, %c0 : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c4 iter_args(%acc = %t) -> (tensor<?xf32>) {
    %sz = affine.min #tile_size(%i)[%n]
    %s = tensor.extract_slice %acc[%i] [%sz] [1] : tensor<?xf32> to tensor<?xf32>
    %e = tensor.empty(%sz) : tensor<?xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %y: f32):
      %p = arith.mulf %x, %f : f32
      linalg.yield %p : f32
    } -> tensor<?xf32>
    %u = tensor.insert_slice %m into %acc[%i] [%sz] [1] : tensor<?xf32> into tensor<?xf32>
    scf.yield %u : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

func.func @shift(%t: tensor<10xf32>) -> tensor<10xf32> {
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %t) -> (tensor<10xf32>) {
    %j = affine.apply #next(%i)
    %v = tensor.extract %t[%j] : tensor<10xf32>
    %w = tensor.insert %v into %acc[%i] : tensor<10xf32>
    scf.yield %w : tensor<10xf32>
  }
  return %r : tensor<10xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %a = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<10xf32>
  %d = tensor.cast %a : tensor<10xf32> to tensor<?xf32>
  %s = call @scale_tiles(%d, %two) : (tensor<?xf32>, f32) -> tensor<?xf32>
  %h = call @shift(%a) : (tensor<10xf32>) -> tensor<10xf32>
  %su = tensor.cast %s : tensor<?xf32> to tensor<*xf32>
  %hu = tensor.cast %h : tensor<10xf32> to tensor<*xf32>
  call @printMemrefF32(%su) : (tensor<*xf32>) -> ()
  call @printMemrefF32(%hu) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
