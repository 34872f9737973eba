// Tile offsets and sizes from affine.apply / affine.min / affine.max in custom syntax
// (floordiv, ceildiv, mod, symbols) drive the slices of a tiled loop; the tiles are
// written in place into the loop-carried tensor.
#tile = affine_map<(d0)[s0] -> (d0 * 4 + s0)>
func.func @f(%t: tensor<64xf32>, %n: index, %off: index, %v: f32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %trips = affine.apply affine_map<()[s0] -> (s0 ceildiv 4)>()[%n]
  %r = scf.for %i = %c0 to %trips step %c1 iter_args(%acc = %t) -> (tensor<64xf32>) {
    %o = affine.apply #tile(%i)[%off]
    %lo = affine.max affine_map<(d0) -> (d0 mod 60, 0)>(%o)
    %sz = affine.min affine_map<(d0)[s0] -> (4, s0 - d0 floordiv 1)>(%lo)[%n]
    %s = tensor.extract_slice %acc[%lo] [%sz] [1] : tensor<64xf32> to tensor<?xf32>
    %f = linalg.fill ins(%v : f32) outs(%s : tensor<?xf32>) -> tensor<?xf32>
    %u = tensor.insert_slice %f into %acc[%lo] [%sz] [1] : tensor<?xf32> into tensor<64xf32>
    scf.yield %u : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
