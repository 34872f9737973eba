// affine.for: constant, SSA and map bounds (with max / min), steps, iter_args, nesting.
#lb = affine_map<(d0)[s0] -> (d0, s0 floordiv 2)>
#ub = affine_map<(d0)[s0] -> (d0 + 8, s0)>
func.func @sum(%m: memref<?xf32>, %n: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %s = affine.for %i = 0 to %n iter_args(%acc = %zero) -> (f32) {
    %v = affine.load %m[%i] : memref<?xf32>
    %t = arith.addf %acc, %v : f32
    affine.yield %t : f32
  }
  return %s : f32
}

func.func @tiles(%m: memref<?x?xf32>, %n: index, %k: index) {
  %one = arith.constant 1.0 : f32
  affine.for %t = 0 to %n step 8 {
    affine.for %i = max #lb(%t)[%k] to min #ub(%t)[%n] {
      affine.for %j = affine_map<(d0) -> (d0)>(%i) to affine_map<()[s0] -> (s0 ceildiv 2)>()[%k] step 2 {
        %v = affine.load %m[%i, %j + 1] : memref<?x?xf32>
        %w = arith.addf %v, %one : f32
        affine.store %w, %m[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

func.func @two_carried(%x: f32, %y: i32) -> (f32, i32) {
  %r:2 = affine.for %i = -4 to 12 step 4 iter_args(%a = %x, %b = %y) -> (f32, i32) {
    %a2 = arith.addf %a, %a : f32
    %b2 = arith.addi %b, %b : i32
    affine.yield %a2, %b2 : f32, i32
  } {loop_tag}
  return %r#0, %r#1 : f32, i32
}
