// A read after an in-place write, a write into a constant, float constants, and an
// argument attribute dictionary out of order.
func.func @raw(%x: f32, %y: f32, %i: index, %j: index) -> (f32, tensor<2xf32>) {
  %t = tensor.from_elements %x, %x : tensor<2xf32>
  %w = tensor.insert %y into %t[%i] : tensor<2xf32>
  %r = tensor.extract %t[%j] : tensor<2xf32>
  return %r, %w : f32, tensor<2xf32>
}

func.func @into_constant(%v: f32, %i: index, %s: tensor<3xf32> {bufferization.writable = false, bufferization.access = "read"}) -> (tensor<3xf32>, tensor<3xf32>) {
  %c = arith.constant dense<[0.5, 0.25, 3.0]> : tensor<3xf32>
  %r = tensor.insert %v into %c[%i] : tensor<3xf32>
  %q = tensor.insert %v into %s[%i] : tensor<3xf32>
  return %r, %q : tensor<3xf32>, tensor<3xf32>
}

func.func @floats(%t: tensor<4xf32>) -> tensor<4xf32> {
  %a = arith.constant 0.1 : f32
  %b = arith.constant 2.0 : f32
  %m = arith.constant 255 : i8
  %f = linalg.fill ins(%a : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %g = linalg.fill ins(%b : f32) outs(%f : tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// CHECK: module {
// CHECK-LABEL: func.func @raw(
// CHECK-SAME: %[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %[[I:[^:]+]]: index, %[[J:[^:]+]]: index) -> (f32, tensor<2xf32>) {
// CHECK-NEXT: %[[T:.+]] = tensor.from_elements %[[X]], %[[X]] {"C_0[DEF: result 0]"} : tensor<2xf32>
// CHECK-NEXT: %[[W:.+]] = tensor.insert %[[Y]] into %[[T]][%[[I]]] {"C_0[CONFL-WRITE: 1]", __inplace_operands_attr__ = ["none", "false", "none"]} : tensor<2xf32>
// CHECK-NEXT: %[[R:.+]] = tensor.extract %[[T]][%[[J]]] {"C_0[READ: 0]", __inplace_operands_attr__ = ["true", "none"]} : tensor<2xf32>
// CHECK-NEXT: return {__inplace_operands_attr__ = ["none", "true"]} %[[R]], %[[W]] : f32, tensor<2xf32>

// CHECK-LABEL: func.func @into_constant(
// CHECK-SAME: tensor<3xf32> {bufferization.access = "read", bufferization.writable = false})
// CHECK-SAME: attributes {"W_0[NOT-WRITABLE: bbArg 2]"} {
// CHECK-NEXT: %[[C:.+]] = arith.constant {"W_1[NOT-WRITABLE: result 0]"} dense<[5.000000e-01, 2.500000e-01, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: tensor.insert %{{.+}} into %[[C]][%{{.+}}] {__inplace_operands_attr__ = ["none", "false", "none"]} : tensor<3xf32>

// CHECK-LABEL: func.func @floats(
// CHECK-SAME: {bufferization.access = "write"}) -> tensor<4xf32> {
// CHECK-NEXT: %[[A:.+]] = arith.constant 1.000000e-01 : f32
// CHECK-NEXT: %[[B:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: arith.constant -1 : i8
// CHECK-NEXT: %[[F:.+]] = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%[[A]] : f32)
// CHECK-NEXT: %[[G:.+]] = linalg.fill {__inplace_operands_attr__ = ["none", "true"]} ins(%[[B]] : f32) outs(%[[F]] : tensor<4xf32>)
// CHECK-NEXT: return {__equivalent_func_args__ = [0], __inplace_operands_attr__ = ["true"]} %[[G]] : tensor<4xf32>
