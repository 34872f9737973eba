func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0] [3.0, 4.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0]], [3.0, 4.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [[3.0, 4.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], 3.0, 4.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
// -----
func.func @f() -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, [3.0], 4.0]> : tensor<4xf32>
  return %c : tensor<4xf32>
}
// -----
func.func @f() -> tensor<2xf32> {
  %c = arith.constant dense<[]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
// -----
func.func @f() -> tensor<0xf32> {
  %c = arith.constant dense<[]> : tensor<0xf32>
  return %c : tensor<0xf32>
}
// -----
func.func @f() -> tensor<2x0xf32> {
  %c = arith.constant dense<[[], []]> : tensor<2x0xf32>
  return %c : tensor<2x0xf32>
}
// -----
func.func @f() -> tensor<2x0xf32> {
  %c = arith.constant dense<[[], []]]> : tensor<2x0xf32>
  return %c : tensor<2x0xf32>
}
// -----
func.func @f() -> tensor<2x0xf32> {
  %c = arith.constant dense<[[]], []]> : tensor<2x0xf32>
  return %c : tensor<2x0xf32>
}
// -----
func.func @f() -> tensor<2x0xf32> {
  %c = arith.constant dense<[[], [[]]]> : tensor<2x0xf32>
  return %c : tensor<2x0xf32>
}
// -----
func.func @f() -> tensor<2x0xf32> {
  %c = arith.constant dense<[], []> : tensor<2x0xf32>
  return %c : tensor<2x0xf32>
}
// -----
func.func @f() -> tensor<2x2xi32> {
  %c = arith.constant dense<[[1, 2]  [3, 4]]> : tensor<2x2xi32>
  return %c : tensor<2x2xi32>
}
// -----
func.func @f() -> tensor<2xcomplex<f32>> {
  %c = arith.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  return %c : tensor<2xcomplex<f32>>
}
// -----
func.func @f() -> tensor<2xcomplex<f32>> {
  %c = arith.constant dense<[(1.0, 2.0), [(3.0, 4.0)]]> : tensor<2xcomplex<f32>>
  return %c : tensor<2xcomplex<f32>>
}
// -----
func.func @f() -> tensor<2xi8> {
  %c = arith.constant dense<"0x0102"> : tensor<2xi8>
  return %c : tensor<2xi8>
}
// -----
func.func @f() -> tensor<2xi8> {
  %c = arith.constant dense<["0x0102"]> : tensor<2xi8>
  return %c : tensor<2xi8>
}
// -----
func.func @f() -> tensor<?xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<?xf32>
  return %c : tensor<?xf32>
}
// -----
func.func @f() -> tensor<2xf32> {
  %c = arith.constant dense<1.0> : tensor<2xf32>
  return %c : tensor<2xf32>
}
// -----
func.func @f() -> tensor<f32> {
  %c = arith.constant dense<[1.0]> : tensor<f32>
  return %c : tensor<f32>
}
// -----
func.func @f() -> tensor<f32> {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
// -----
func.func @f() -> vector<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
  return %c : vector<2x2xf32>
}
// -----
func.func @f() -> vector<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]> : vector<2x2xf32>
  return %c : vector<2x2xf32>
}
