// Literals and dimension-naming attributes for the literal-level mutation test
// (tests/test_verify.py): dense literals of several element types and shapes, strings
// with escapes, integer constants at their types' limits, and ops whose attributes name
// dimensions.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @constants() -> (tensor<2x3xf32>, tensor<4xi8>, tensor<2x2xi32>, tensor<3xi1>, tensor<2xf64>, tensor<3xindex>) attributes {note = "tab\there, quote \" and \\ and \0A"} {
  %a = arith.constant dense<[[1.5, -2.25, 3.0], [0.125, 4.0e+02, -7.5e-01]]> : tensor<2x3xf32>
  %b = arith.constant dense<[127, -128, 0, 42]> : tensor<4xi8>
  %c = arith.constant dense<[[1, 2], [-3, 2147483647]]> : tensor<2x2xi32>
  %d = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %e = arith.constant dense<0x7FF0000000000000> : tensor<2xf64>
  %f = arith.constant dense<[0, 7, 9223372036854775807]> : tensor<3xindex>
  %g = arith.constant 255 : i8
  %h = arith.constant -32768 : i16
  %k = arith.constant 4294967295 : i32
  return %a, %b, %c, %d, %e, %f : tensor<2x3xf32>, tensor<4xi8>, tensor<2x2xi32>, tensor<3xi1>, tensor<2xf64>, tensor<3xindex>
}
func.func @dims(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x4x3xf32>, %d: tensor<2x3x4xf32>, %m: memref<8x4xf32>) -> (tensor<3x2xf32>, tensor<2x4x3xf32>, tensor<8x3xf32>, tensor<2x1x3xf32>, tensor<4x3xf32>, tensor<2x4x3xf32>, tensor<3x2x4xf32>) {
  %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 0]
  %br = linalg.broadcast ins(%a : tensor<2x3xf32>) outs(%c : tensor<2x4x3xf32>) dimensions = [1]
  %cs = tensor.collapse_shape %c [[0, 1], [2]] : tensor<2x4x3xf32> into tensor<8x3xf32>
  %es = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 1, 3] : tensor<2x3xf32> into tensor<2x1x3xf32>
  %cc = tensor.concat dim(0) %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %sl = tensor.extract_slice %c[0, 0, 0] [2, 1, 3] [1, 1, 1] : tensor<2x4x3xf32> to tensor<2x3xf32>
  %in = tensor.insert_slice %sl into %c[0, 2, 0] [2, 1, 3] [1, 1, 1] : tensor<2x3xf32> into tensor<2x4x3xf32>
  %sv = memref.subview %m[0, 1] [4, 2] [2, 1] : memref<8x4xf32> to memref<4x2xf32, strided<[8, 1], offset: 1>>
  %e3 = tensor.empty() : tensor<3x2x4xf32>
  %t3 = linalg.transpose ins(%d : tensor<2x3x4xf32>) outs(%e3 : tensor<3x2x4xf32>) permutation = [1, 0, 2]
  return %t, %br, %cs, %es, %cc, %in, %t3 : tensor<3x2xf32>, tensor<2x4x3xf32>, tensor<8x3xf32>, tensor<2x1x3xf32>, tensor<4x3xf32>, tensor<2x4x3xf32>, tensor<3x2x4xf32>
}
