// affine.if over integer sets: equalities, inequalities, symbols, results, else, nesting.
#inside = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - d0 - 1 >= 0, d1 >= 0, s0 - d1 - 1 >= 0)>
#diag = affine_set<(d0, d1) : (d0 - d1 == 0)>
func.func @clamp(%m: memref<?x?xf32>, %n: index, %v: f32) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      affine.if #diag(%i, %j) {
        affine.store %v, %m[%i, %j] : memref<?x?xf32>
      } else {
        %j1 = affine.apply affine_map<(d0) -> (d0 + 1)>(%j)
        affine.if #inside(%i, %j1)[%n] {
          %w = affine.load %m[%i, %j + 1] : memref<?x?xf32>
          affine.store %w, %m[%i, %j] : memref<?x?xf32>
        }
      }
    }
  }
  return
}

func.func @select(%i: index, %n: index, %a: f32, %b: f32) -> (f32, f32) {
  %r = affine.if affine_set<(d0)[s0] : (d0 * 2 - s0 >= 0, d0 mod 2 == 0)>(%i)[%n] -> f32 {
    affine.yield %a : f32
  } else {
    affine.yield %b : f32
  }
  %p:2 = affine.if affine_set<()[s0] : (s0 - 10 >= 0)>()[%n] -> (f32, f32) {
    affine.yield %a, %r : f32, f32
  } else {
    affine.yield %r, %b : f32, f32
  }
  return %p#0, %p#1 : f32, f32
}

func.func @empty_set(%i: index) {
  affine.if affine_set<(d0) : ()>(%i) {
  }
  return
}
