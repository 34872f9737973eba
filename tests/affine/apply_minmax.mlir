// affine.apply / min / max with floordiv, ceildiv, mod, symbols, aliases and inline maps.
#tile = affine_map<(d0)[s0] -> (d0 * s0)>
#rem = affine_map<(d0)[s0, s1] -> (s0 - d0 * s1, s1)>
#lin = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>
func.func @index_math(%i: index, %j: index, %n: index, %ts: index) -> (index, index, index, index, index) {
  %a = affine.apply #tile(%i)[%ts]
  %b = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%n)[%ts]
  %c = affine.apply affine_map<(d0, d1) -> ((d0 + d1) floordiv 4 + (d0 mod 3) * 2)>(%i, %j)
  %d = affine.min #rem(%i)[%n, %ts]
  %e = affine.max affine_map<(d0)[s0] -> (d0 - s0, 0, -d0 + 7)>(%j)[%n]
  %f = affine.apply #lin(%a, %b)[%n] {tag = "linear"}
  %g = affine.apply affine_map<()[s0, s1] -> (s0 mod s1 + s1 floordiv 2)>()[%n, %ts]
  %h = affine.min affine_map<(d0) -> (d0)>(%f)
  %k = affine.apply affine_map<(d0) -> (-(d0 - 1) * 3)>(%h)
  return %c, %d, %e, %g, %k : index, index, index, index, index
}

func.func @constants() -> index {
  %z = affine.apply affine_map<() -> (42)>()
  %m = affine.max affine_map<()[s0] -> (s0, 8)>()[%z]
  return %m : index
}
