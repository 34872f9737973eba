// Affine maps by alias and written out, named bodies in short form, a body that cannot
// be, and a generic whose output is read later.
#rows = affine_map<(i, j) -> (i, j)>
#cols = affine_map<(i,j)->(j,i)>
func.func @maps(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %o: tensor<4x4xf32>) -> (tensor<4x4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %t = linalg.generic {indexing_maps = [#cols, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%o : tensor<4x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %s = linalg.map ins(%t, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%o : tensor<4x4xf32>) (%p: f32, %q: f32, %init: f32) {
    %r = arith.subf %p, %q : f32
    linalg.yield %r : f32
  }
  %e = tensor.extract %t[%c0, %c0] : tensor<4x4xf32>
  return %s, %e : tensor<4x4xf32>, f32
}

func.func @reduce(%a: tensor<4x3xf32>, %o: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = linalg.reduce ins(%a : tensor<4x3xf32>) outs(%o : tensor<4xf32>) dimensions = [1] (%x: f32, %acc: f32) {
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }
  %m = linalg.reduce ins(%a : tensor<4x3xf32>) outs(%o : tensor<4xf32>) dimensions = [1] (%x: f32, %acc: f32) {
    %s = arith.maximumf %x, %acc : f32
    linalg.yield %s : f32
  }
  return %r, %m : tensor<4xf32>, tensor<4xf32>
}

// CHECK: #[[ROWS_T:map[0-9]*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #[[ID:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: module {
// CHECK-LABEL: func.func @maps(
// CHECK: %[[T:.+]] = linalg.generic {indexing_maps = [#[[ROWS_T]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<4x4xf32>) outs(%{{.+}} : tensor<4x4xf32>) attrs = {"C_{{[0-9]+}}[DEF: result 0]", __inplace_operands_attr__ = ["true", "false"]} {
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK-NEXT: } -> tensor<4x4xf32>
// CHECK-NEXT: %[[S:.+]] = linalg.map { arith.subf } ins(%[[T]], %{{.+}} : tensor<4x4xf32>, tensor<4x4xf32>) outs(%{{.+}} : tensor<4x4xf32>) {"C_{{[0-9]+}}[CONFL-WRITE: 2]", __inplace_operands_attr__ = ["true", "true", "true"]}
// CHECK-NEXT: %[[E:.+]] = tensor.extract %[[T]][%{{.+}}, %{{.+}}] {"C_{{[0-9]+}}[READ: 0]", __inplace_operands_attr__ = ["true", "none", "none"]} : tensor<4x4xf32>
// CHECK-NEXT: return {__equivalent_func_args__ = [2, -1], __inplace_operands_attr__ = ["true", "none"]} %[[S]], %[[E]] : tensor<4x4xf32>, f32

// CHECK-LABEL: func.func @reduce(
// CHECK: %[[R:.+]] = linalg.reduce { arith.addf } ins(%{{.+}} : tensor<4x3xf32>) outs(%{{.+}} : tensor<4xf32>) dimensions = [1] {{.*}}__inplace_operands_attr__ = ["true", "false"]}
// CHECK-NEXT: %[[M:.+]] = linalg.reduce ins(%{{.+}} : tensor<4x3xf32>) outs(%{{.+}} : tensor<4xf32>) dimensions = [1] {{.*}}__inplace_operands_attr__ = ["true", "true"]}
// CHECK-NEXT: (%[[X:.+]]: f32, %[[ACC:.+]]: f32) {
// CHECK-NEXT: %[[MAX:.+]] = arith.maximumf %[[X]], %[[ACC]] : f32
// CHECK-NEXT: linalg.yield %[[MAX]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: return {{.*}}__equivalent_func_args__ = [-1, 1], __inplace_operands_attr__ = ["true", "true"]} %[[R]], %[[M]] : tensor<4xf32>, tensor<4xf32>
