// The covering rule in two dimensions after a dead fill: a short vector dimension (read),
// a full 4x8 write (no read), a dynamic destination (read), and a rank-reducing write
// into a 1x8 destination (its unit dimension needs no vector dimension: no read).
func.func @dead_fill_2d(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>, %c: tensor<4x8xf32>, %d: tensor<?x8xf32>, %v48: vector<4x8xf32>, %v44: vector<4x4xf32>, %v8: vector<8xf32>, %s: f32) -> (tensor<4x8xf32>, tensor<1x8xf32>, tensor<4x8xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %fa = linalg.fill ins(%s : f32) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %wa = vector.transfer_write %v44, %a[%c0, %c0] : vector<4x4xf32>, tensor<4x8xf32>
  %fb = linalg.fill ins(%s : f32) outs(%b : tensor<1x8xf32>) -> tensor<1x8xf32>
  %wb = vector.transfer_write %v8, %b[%c0, %c0] : vector<8xf32>, tensor<1x8xf32>
  %fc = linalg.fill ins(%s : f32) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %wc = vector.transfer_write %v48, %c[%c0, %c0] : vector<4x8xf32>, tensor<4x8xf32>
  %fd = linalg.fill ins(%s : f32) outs(%d : tensor<?x8xf32>) -> tensor<?x8xf32>
  %wd = vector.transfer_write %v48, %d[%c0, %c0] : vector<4x8xf32>, tensor<?x8xf32>
  return %wa, %wb, %wc, %wd : tensor<4x8xf32>, tensor<1x8xf32>, tensor<4x8xf32>, tensor<?x8xf32>
}
