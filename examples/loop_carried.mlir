// A loop whose body writes, in place, into a tensor made before the loop, and passes the
// result on to the next iteration: that buffer is written again every iteration, so the
// value passed on is copied (mlir-opt-22 does the same with allow-return-allocs-from-loops).
func.func @count(%n: tensor<i64>, %limit: i64) -> tensor<i64> {
  %e = tensor.empty() : tensor<i64>
  %r = scf.while (%cur = %n) : (tensor<i64>) -> tensor<i64> {
    %v = tensor.extract %cur[] : tensor<i64>
    %go = arith.cmpi slt, %v, %limit : i64
    scf.condition(%go) %cur : tensor<i64>
  } do {
  ^bb0(%cur: tensor<i64>):
    %v = tensor.extract %cur[] : tensor<i64>
    %c1 = arith.constant 1 : i64
    %next = arith.addi %v, %c1 : i64
    %w = tensor.insert %next into %e[] : tensor<i64>
    scf.yield %w : tensor<i64>
  }
  return %r : tensor<i64>
}
