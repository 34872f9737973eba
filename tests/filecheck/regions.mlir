// Several results of one op, a region with a second block, a switch, a loop whose
// body writes its iter_arg.
func.func @loop(%t: tensor<4xf32>, %u: tensor<4xf32>, %n: index, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t, %b = %u) -> (tensor<4xf32>, tensor<4xf32>) {
    %w = tensor.insert %v into %a[%i] : tensor<4xf32>
    scf.yield %w, %b : tensor<4xf32>, tensor<4xf32>
  }
  return %r#1, %r#0 : tensor<4xf32>, tensor<4xf32>
}

func.func @blocks(%t: tensor<4xf32>, %c: i1, %v: f32, %i: index) -> tensor<4xf32> {
  %r = scf.execute_region -> (tensor<4xf32>) {
    cf.cond_br %c, ^bb1, ^bb2(%t : tensor<4xf32>)
  ^bb1:
    %w = tensor.insert %v into %t[%i] : tensor<4xf32>
    cf.br ^bb2(%w : tensor<4xf32>)
  ^bb2(%x: tensor<4xf32>):
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @switch(%k: index, %t: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %r = scf.index_switch %k -> tensor<4xf32>
  case 0 {
    %w = tensor.insert %v into %t[%k] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  }
  default {
    scf.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @loop(
// CHECK: %[[R:.+]]:2 = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[A:.+]] = %{{.+}}, %[[B:.+]] = %{{.+}}) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %[[W:.+]] = tensor.insert %{{.+}} into %[[A]][%[[I]]] {__inplace_operands_attr__ = ["none", "true", "none"]} : tensor<4xf32>
// CHECK-NEXT: scf.yield {__inplace_operands_attr__ = ["true", "true"]} %[[W]], %[[B]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: } {__inplace_operands_attr__ = ["none", "none", "none", "true", "true"]}
// CHECK-NEXT: return {__equivalent_func_args__ = [1, 0], __inplace_operands_attr__ = ["true", "true"]} %[[R]]#1, %[[R]]#0

// CHECK-LABEL: func.func @blocks(
// CHECK: %[[E:.+]] = scf.execute_region -> tensor<4xf32> {
// CHECK-NEXT: cf.cond_br %{{.+}}, ^bb1, ^bb2(%{{.+}} : tensor<4xf32>) {__inplace_operands_attr__ = ["none", "true"]}
// CHECK-NEXT: ^bb1: // pred: ^bb0
// CHECK-NEXT: %[[W2:.+]] = tensor.insert
// CHECK-NEXT: cf.br ^bb2(%[[W2]] : tensor<4xf32>) {__inplace_operands_attr__ = ["true"]}
// CHECK-NEXT: ^bb2(%[[X:.+]]: tensor<4xf32>): // 2 preds: ^bb0, ^bb1
// CHECK-NEXT: scf.yield {__inplace_operands_attr__ = ["true"]} %[[X]] : tensor<4xf32>

// CHECK-LABEL: func.func @switch(
// CHECK: %[[S:.+]] = scf.index_switch %{{.+}} -> tensor<4xf32>
// CHECK-NEXT: case 0 {
// CHECK-NEXT: tensor.insert {{.+}} {__inplace_operands_attr__ = ["none", "true", "none"]} : tensor<4xf32>
// CHECK-NEXT: scf.yield {__inplace_operands_attr__ = ["true"]}
// CHECK-NEXT: }
// CHECK-NEXT: default {
// CHECK: return {__equivalent_func_args__ = [1], __inplace_operands_attr__ = ["true"]} %[[S]] : tensor<4xf32>
