// Unknown ops inside an scf.for and an scf.if: the loop reads an unknown op's result
// each iteration; a function argument is handed to one directly.
func.func @f(%t: tensor<8xf32>, %v: f32, %n: index, %c: i1) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<8xf32>) {
    %w = tensor.insert %v into %acc[%i] : tensor<8xf32>
    %u = "foo.step"(%w, %i) : (tensor<8xf32>, index) -> tensor<8xf32>
    %x = tensor.extract %u[%i] : tensor<8xf32>
    %w2 = tensor.insert %x into %w[%c0] : tensor<8xf32>
    scf.yield %w2 : tensor<8xf32>
  }
  %s = scf.if %c -> tensor<8xf32> {
    %k = "foo.make"() : () -> tensor<8xf32>
    scf.yield %k : tensor<8xf32>
  } else {
    %k = "foo.copy"(%t) : (tensor<8xf32>) -> tensor<8xf32>
    %x = tensor.insert %v into %k[%c1] : tensor<8xf32>
    scf.yield %x : tensor<8xf32>
  }
  return %r, %s : tensor<8xf32>, tensor<8xf32>
}
