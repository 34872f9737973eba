// An affine loop whose subscript multiplies two loop indices: not affine.
func.func @f(%m: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %m[%i * %j, %j] : memref<8x8xf32>
    }
  }
  return
}
