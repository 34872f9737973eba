// Loops that only hand their iter_arg back: over a read-only argument the init goes out
// of place (a loop init counts as a write), over a writable one it stays.
func.func @f(%ro: tensor<?xf32> {bufferization.writable = false}, %rw: tensor<?xf32>, %n: index) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = scf.for %k = %c0 to %n step %c1 iter_args(%x = %ro) -> tensor<?xf32> {
    scf.yield %x : tensor<?xf32>
  }
  %b = scf.for %k = %c0 to %n step %c1 iter_args(%x = %rw) -> tensor<?xf32> {
    scf.yield %x : tensor<?xf32>
  }
  return %a, %b : tensor<?xf32>, tensor<?xf32>
}
