// Two tensor.insert into one tensor %t at run-time indices %i = 1 and %j = 2; only the
// second one's result %b is printed. %a is read (element i), so the first insert is not
// dead; if it went in place, %b would hold the 1.0 it wrote at element i. Right: %b is
// %t with element 2 set to %a[1] = 1:
//   %t = [0, 7, 5, 3]; %a = %t with a[1] = 1 -> s = 1; %b = %t with b[2] = s = [0, 7, 1, 3]
func.func @two_inserts(%i: index, %j: index) -> tensor<4xf32> {
  %one = arith.constant 1.0 : f32
  %cst = arith.constant dense<[0.0, 7.0, 5.0, 3.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %t = linalg.copy ins(%cst : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %a = tensor.insert %one into %t[%i] : tensor<4xf32>
  %s = tensor.extract %a[%i] : tensor<4xf32>
  %b = tensor.insert %s into %t[%j] : tensor<4xf32>
  return %b : tensor<4xf32>
}
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = func.call @two_inserts(%c1, %c2) : (index, index) -> tensor<4xf32>
  %u = tensor.cast %b : tensor<4xf32> to tensor<*xf32>
  func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
