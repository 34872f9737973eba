// Function boundaries off: a multi-block function, a loop over a call's result, an
// argument returned as is and an argument written (copied: arguments are read-only).
func.func @step(%t: tensor<4xf32>, %i: index, %v: f32) -> tensor<4xf32> {
  %w = tensor.insert %v into %t[%i] : tensor<4xf32>
  return %w : tensor<4xf32>
}

func.func @pick(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : tensor<4xf32>
^bb2:
  %c0 = arith.constant 0 : index
  %x = tensor.extract %a[%c0] : tensor<4xf32>
  %w = tensor.insert %x into %b[%c0] : tensor<4xf32>
  return %w : tensor<4xf32>
}

func.func @loop(%t: tensor<4xf32>, %n: index, %v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = func.call @step(%t, %c0, %v) : (tensor<4xf32>, index, f32) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> (tensor<4xf32>) {
    %w = tensor.insert %v into %acc[%i] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
