func.func @f(%t: tensor<8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[-1] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[6] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[0] [3] [1] : tensor<8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>, %u: tensor<4xf32>) -> tensor<8xf32> {
  %s = tensor.insert_slice %u into %t[6] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %s : tensor<8xf32>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 6>> {
  %s = memref.subview %t[6] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 6>>
  return %s : memref<4xf32, strided<[1], offset: 6>>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[0] [4] [3] : tensor<8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[0] [4] [-1] : tensor<8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<9xf32> {
  %s = tensor.extract_slice %t[0] [9] [1] : tensor<8xf32> to tensor<9xf32>
  return %s : tensor<9xf32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<0xf32> {
  %s = tensor.extract_slice %t[8] [0] [1] : tensor<8xf32> to tensor<0xf32>
  return %s : tensor<0xf32>
}
// -----
func.func @f(%t: tensor<?xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[-1] [4] [1] : tensor<?xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 2>> {
  %s = memref.subview %t[1] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  return %s : memref<4xf32, strided<[1], offset: 2>>
}
// -----
func.func @f(%t: tensor<8x8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[0, 0] [1, 4] [1, 1] : tensor<8x8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8x8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[0, 0] [2, 4] [1, 1] : tensor<8x8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8x8xf32>, %i: index) -> tensor<?x4xf32> {
  %s = tensor.extract_slice %t[0, 0] [%i, 4] [1, 1] : tensor<8x8xf32> to tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}
// -----
func.func @f(%t: tensor<8x8xf32>, %i: index) -> tensor<4x4xf32> {
  %s = tensor.extract_slice %t[0, 0] [%i, 4] [1, 1] : tensor<8x8xf32> to tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
// -----
func.func @f(%t: tensor<8x8xf32>, %i: index) -> tensor<?x4xf32> {
  %s = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<8x8xf32> to tensor<?x4xf32>
  return %s : tensor<?x4xf32>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<4xf32, strided<[1], offset: ?>> {
  %s = memref.subview %t[1] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  return %s : memref<4xf32, strided<[1], offset: ?>>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<4xf32, strided<[?], offset: 1>> {
  %s = memref.subview %t[1] [4] [1] : memref<8xf32> to memref<4xf32, strided<[?], offset: 1>>
  return %s : memref<4xf32, strided<[?], offset: 1>>
}
// -----
func.func @f(%t: memref<8xf32>, %o: index) -> memref<4xf32, strided<[1], offset: 2>> {
  %s = memref.subview %t[%o] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  return %s : memref<4xf32, strided<[1], offset: 2>>
}
// -----
func.func @f(%t: memref<8x8xf32>) -> memref<4xf32, strided<[1], offset: 8>> {
  %s = memref.subview %t[1, 0] [1, 4] [1, 1] : memref<8x8xf32> to memref<4xf32, strided<[1], offset: 8>>
  return %s : memref<4xf32, strided<[1], offset: 8>>
}
// -----
func.func @f(%t: memref<8x8xf32>) -> memref<4xf32, strided<[8], offset: 2>> {
  %s = memref.subview %t[0, 2] [4, 1] [1, 1] : memref<8x8xf32> to memref<4xf32, strided<[8], offset: 2>>
  return %s : memref<4xf32, strided<[8], offset: 2>>
}
// -----
func.func @f(%t: memref<8x8xf32>) -> memref<4xf32, strided<[1], offset: 2>> {
  %s = memref.subview %t[0, 2] [4, 1] [1, 1] : memref<8x8xf32> to memref<4xf32, strided<[1], offset: 2>>
  return %s : memref<4xf32, strided<[1], offset: 2>>
}
// -----
func.func @f(%t: memref<8xf32, 1>) -> memref<4xf32, strided<[1], offset: 1>> {
  %s = memref.subview %t[1] [4] [1] : memref<8xf32, 1> to memref<4xf32, strided<[1], offset: 1>>
  return %s : memref<4xf32, strided<[1], offset: 1>>
}
// -----
func.func @f(%t: memref<8x8xf32>) -> memref<4x8xf32> {
  %s = memref.subview %t[0, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32>
  return %s : memref<4x8xf32>
}
// -----
func.func @f(%t: memref<8x8xf32>) -> memref<4x4xf32> {
  %s = memref.subview %t[0, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32>
  return %s : memref<4x4xf32>
}
// -----
func.func @f(%t: memref<?x?xf32>) -> memref<4x4xf32, strided<[?, 1], offset: ?>> {
  %s = memref.subview %t[1, 1] [4, 4] [1, 1] : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
  return %s : memref<4x4xf32, strided<[?, 1], offset: ?>>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<1x4xf32> {
  %s = memref.subview %t[0] [4] [1] : memref<8xf32> to memref<1x4xf32>
  return %s : memref<1x4xf32>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<3xf32> {
  %s = memref.subview %t[0] [4] [1] : memref<8xf32> to memref<3xf32>
  return %s : memref<3xf32>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<4xi32> {
  %s = memref.subview %t[0] [4] [1] : memref<8xf32> to memref<4xi32>
  return %s : memref<4xi32>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 5>> {
  %s = memref.subview %t[5] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 5>>
  return %s : memref<4xf32, strided<[1], offset: 5>>
}
// -----
func.func @f(%t: memref<8x?xf32>) -> memref<4x4xf32, strided<[?, 0], offset: ?>> {
  %s = memref.subview %t[1, 1] [4, 4] [1, 0] : memref<8x?xf32> to memref<4x4xf32, strided<[?, 0], offset: ?>>
  return %s : memref<4x4xf32, strided<[?, 0], offset: ?>>
}
// -----
func.func @f(%t: memref<?x0x?xf32>) -> memref<1x0x1xf32, strided<[0, ?, 1], offset: 0>> {
  %s = memref.subview %t[0, 0, 0] [1, 0, 1] [1, 1, 1] : memref<?x0x?xf32> to memref<1x0x1xf32, strided<[0, ?, 1], offset: 0>>
  return %s : memref<1x0x1xf32, strided<[0, ?, 1], offset: 0>>
}
// -----
func.func @f(%t: memref<8x8x8xf32>) -> memref<1x8xf32, strided<[64, 1]>> {
  %s = memref.subview %t[0, 0, 0] [1, 1, 8] [1, 1, 1] : memref<8x8x8xf32> to memref<1x8xf32, strided<[64, 1]>>
  return %s : memref<1x8xf32, strided<[64, 1]>>
}
// -----
func.func @f(%t: memref<8x8x8xf32>) -> memref<1x8xf32, strided<[8, 1]>> {
  %s = memref.subview %t[0, 0, 0] [1, 1, 8] [1, 1, 1] : memref<8x8x8xf32> to memref<1x8xf32, strided<[8, 1]>>
  return %s : memref<1x8xf32, strided<[8, 1]>>
}
// -----
func.func @f(%t: memref<8x8x8xf32>) -> memref<1x8xf32, strided<[2, 1]>> {
  %s = memref.subview %t[0, 0, 0] [1, 1, 8] [1, 1, 1] : memref<8x8x8xf32> to memref<1x8xf32, strided<[2, 1]>>
  return %s : memref<1x8xf32, strided<[2, 1]>>
}
// -----
func.func @f(%t: memref<8xf32>, %n: index) -> memref<?xf32, strided<[1], offset: 2>> {
  %s = memref.subview %t[2] [%n] [1] : memref<8xf32> to memref<?xf32, strided<[1], offset: 2>>
  return %s : memref<?xf32, strided<[1], offset: 2>>
}
// -----
func.func @f(%t: memref<8xf32>) -> memref<4xf32, strided<[-1], offset: 7>> {
  %s = memref.subview %t[7] [4] [-1] : memref<8xf32> to memref<4xf32, strided<[-1], offset: 7>>
  return %s : memref<4xf32, strided<[-1], offset: 7>>
}
// -----
func.func @f(%t: memref<8x?xf32>) -> memref<4x4xf32, strided<[?, 1]>> {
  %s = memref.subview %t[0, 0] [4, 4] [1, 1] : memref<8x?xf32> to memref<4x4xf32, strided<[?, 1]>>
  return %s : memref<4x4xf32, strided<[?, 1]>>
}
// -----
func.func @f(%t: memref<?x?xf32>) -> memref<4x4xf32, strided<[?, 1], offset: ?>> {
  %s = memref.subview %t[0, 1] [4, 4] [1, 1] : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
  return %s : memref<4x4xf32, strided<[?, 1], offset: ?>>
}
// -----
func.func @f(%t: memref<8x8xf32, strided<[16, 2], offset: 3>>) -> memref<4x4xf32, strided<[32, 2], offset: 23>> {
  %s = memref.subview %t[1, 2] [4, 4] [2, 1] : memref<8x8xf32, strided<[16, 2], offset: 3>> to memref<4x4xf32, strided<[32, 2], offset: 23>>
  return %s : memref<4x4xf32, strided<[32, 2], offset: 23>>
}
// -----
func.func @f(%t: memref<8xf32, 0>) -> memref<4xf32, strided<[1], offset: 1>> {
  %s = memref.subview %t[1] [4] [1] : memref<8xf32, 0> to memref<4xf32, strided<[1], offset: 1>>
  return %s : memref<4xf32, strided<[1], offset: 1>>
}
// -----
#m = affine_map<(d0, d1) -> (d0 * 8 + d1)>
func.func @f(%t: memref<8x8xf32, #m>) -> memref<4x4xf32, strided<[8, 1], offset: 9>> {
  %s = memref.subview %t[1, 1] [4, 4] [1, 1] : memref<8x8xf32, #m> to memref<4x4xf32, strided<[8, 1], offset: 9>>
  return %s : memref<4x4xf32, strided<[8, 1], offset: 9>>
}
// -----
func.func @f(%t: memref<8x8xf32, affine_map<(d0, d1) -> (d0, d1)>>) -> memref<4x4xf32, strided<[8, 1], offset: 9>> {
  %s = memref.subview %t[1, 1] [4, 4] [1, 1] : memref<8x8xf32, affine_map<(d0, d1) -> (d0, d1)>> to memref<4x4xf32, strided<[8, 1], offset: 9>>
  return %s : memref<4x4xf32, strided<[8, 1], offset: 9>>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<?xf32> {
  %s = tensor.extract_slice %t[0] [-2] [1] : tensor<8xf32> to tensor<?xf32>
  return %s : tensor<?xf32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<4xi32> {
  %s = tensor.extract_slice %t[0] [4] [1] : tensor<8xf32> to tensor<4xi32>
  return %s : tensor<4xi32>
}
// -----
func.func @f(%t: tensor<8xf32>) -> tensor<1x4xf32> {
  %s = tensor.extract_slice %t[0] [4] [1] : tensor<8xf32> to tensor<1x4xf32>
  return %s : tensor<1x4xf32>
}
// -----
func.func @f(%t: tensor<8x8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[0] [4] [1] : tensor<8x8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>, %u: tensor<3xf32>) -> tensor<8xf32> {
  %s = tensor.insert_slice %u into %t[0] [4] [1] : tensor<3xf32> into tensor<8xf32>
  return %s : tensor<8xf32>
}
// -----
func.func @f(%t: tensor<8x8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %t[-1] [4] [1] : tensor<8x8xf32> to tensor<4xf32>
  return %s : tensor<4xf32>
}
// -----
func.func @f(%t: tensor<8xf32>, %u: tensor<4xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (2) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %u into %o[6] [4] [1] : tensor<4xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
// -----
func.func @f(%t: tensor<8xf32>, %u: tensor<4xf32>) -> tensor<8xf32> {
  %s = tensor.insert_slice %u into %t[-2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %s : tensor<8xf32>
}
// -----
func.func @f(%t: tensor<8xf32, "enc">) -> tensor<4xf32, "enc"> {
  %s = tensor.extract_slice %t[0] [4] [1] : tensor<8xf32, "enc"> to tensor<4xf32, "enc">
  return %s : tensor<4xf32, "enc">
}
// -----
func.func @f(%t: tensor<8x1x4xf32>) -> tensor<8x4xf32> {
  %s = tensor.extract_slice %t[0, 0, 0] [8, 1, 4] [1, 1, 1] : tensor<8x1x4xf32> to tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}
// -----
func.func @f(%t: tensor<?x?xf32>, %i: index) -> tensor<?xf32> {
  %s = tensor.extract_slice %t[0, 0] [%i, 1] [1, 1] : tensor<?x?xf32> to tensor<?xf32>
  return %s : tensor<?xf32>
}
