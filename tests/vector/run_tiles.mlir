// Read, compute and write back into a slice of a live tensor: a vectorised loop over 2x4
// tiles of a 4x8 tensor (transposed reads of a second input), a masked partial write of
// a row and a full overwrite of a fresh tensor; the inputs are printed after the call.
#tr = affine_map<(a, b) -> (b, a)>
func.func @tiles(%t: tensor<4x8xf32>, %u: tensor<8x4xf32>, %n: index) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %r = scf.for %j = %c0 to %c8 step %c4 iter_args(%acc = %t) -> (tensor<4x8xf32>) {
    %r2 = scf.for %i = %c0 to %c4 step %c2 iter_args(%acc2 = %acc) -> (tensor<4x8xf32>) {
      %s = tensor.extract_slice %acc2[%i, %j] [2, 4] [1, 1] : tensor<4x8xf32> to tensor<2x4xf32>
      %a = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<2x4xf32>, vector<2x4xf32>
      %b = vector.transfer_read %u[%j, %i], %pad {permutation_map = #tr, in_bounds = [true, true]} : tensor<8x4xf32>, vector<2x4xf32>
      %y = arith.addf %a, %b : vector<2x4xf32>
      %w = vector.transfer_write %y, %s[%c0, %c0] {in_bounds = [true, true]} : vector<2x4xf32>, tensor<2x4xf32>
      %ins = tensor.insert_slice %w into %acc2[%i, %j] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x8xf32>
      scf.yield %ins : tensor<4x8xf32>
    }
    scf.yield %r2 : tensor<4x8xf32>
  }
  %m = vector.create_mask %n : vector<8xi1>
  %minus = arith.constant dense<-1.0> : vector<8xf32>
  %row = vector.transfer_write %minus, %r[%c2, %c0], %m {in_bounds = [true]} : vector<8xf32>, tensor<4x8xf32>
  %e = tensor.empty() : tensor<4xf32>
  %col = vector.transfer_read %row[%c0, %c2], %pad {permutation_map = affine_map<(a, b) -> (a)>} : tensor<4x8xf32>, vector<4xf32>
  %sum = vector.reduction <add>, %col : vector<4xf32> into f32
  vector.print %sum : f32
  %fresh = vector.transfer_write %col, %e[%c0] : vector<4xf32>, tensor<4xf32>
  return %row, %fresh : tensor<4x8xf32>, tensor<4xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %t = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0], [20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0], [30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0]]> : tensor<4x8xf32>
  %u = arith.constant dense<[[0.5, 0.25, 0.125, 0.0], [1.5, 1.25, 1.125, 1.0], [2.5, 2.25, 2.125, 2.0], [3.5, 3.25, 3.125, 3.0], [4.5, 4.25, 4.125, 4.0], [5.5, 5.25, 5.125, 5.0], [6.5, 6.25, 6.125, 6.0], [7.5, 7.25, 7.125, 7.0]]> : tensor<8x4xf32>
  %n = arith.constant 5 : index
  %r:2 = call @tiles(%t, %u, %n) : (tensor<4x8xf32>, tensor<8x4xf32>, index) -> (tensor<4x8xf32>, tensor<4xf32>)
  %a = tensor.cast %r#0 : tensor<4x8xf32> to tensor<*xf32>
  call @printMemrefF32(%a) : (tensor<*xf32>) -> ()
  %b = tensor.cast %r#1 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%b) : (tensor<*xf32>) -> ()
  %c = tensor.cast %t : tensor<4x8xf32> to tensor<*xf32>
  call @printMemrefF32(%c) : (tensor<*xf32>) -> ()
  return
}
