// affine.load / affine.store subscripts: constants, sums, products by symbols and
// constants, floordiv / mod, symbol(%x), repeated names, 0-d memrefs, attributes.
func.func @access(%m: memref<16x16xf32>, %s: memref<f32>, %n: index, %k: index) {
  %c = affine.load %s[] : memref<f32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %a = affine.load %m[%i * 2, %j + symbol(%n) floordiv 4] : memref<16x16xf32>
      %b = affine.load %m[(%i + %j) mod 16, 15 - %i] {nontemporal} : memref<16x16xf32>
      %d = affine.load %m[%i + %i, symbol(%k) * 3 - symbol(%k)] : memref<16x16xf32>
      %t = arith.addf %a, %b : f32
      %u = arith.addf %t, %d : f32
      affine.store %u, %m[%j, %i] : memref<16x16xf32>
      affine.store %c, %m[3, 2 * %j - %j] : memref<16x16xf32>
    }
  }
  affine.store %c, %s[] : memref<f32>
  return
}
