// vector.gather reads a loop-carried tensor each iteration before the iteration writes one
// element of it: in place (the read comes first); a gather from the function argument
// after the loop reads the original, so the loop's init goes out of place.
func.func @f(%t: tensor<16xf32>, %idx: vector<4xindex>, %n: index) -> (tensor<16xf32>, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mask = arith.constant dense<true> : vector<4xi1>
  %pass = arith.constant dense<0.0> : vector<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<16xf32>) {
    %v = vector.gather %acc[%c0] [%idx], %mask, %pass : tensor<16xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    %s = vector.reduction <add>, %v : vector<4xf32> into f32
    %w = tensor.insert %s into %acc[%i] : tensor<16xf32>
    scf.yield %w : tensor<16xf32>
  }
  %g = vector.gather %t[%c0] [%idx], %mask, %pass : tensor<16xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %r, %g : tensor<16xf32>, vector<4xf32>
}
