// A loop yields an arith.select of two allocations of its body, both out of scope at the
// yield. mlir-opt passes the selected buffer with a run-time flag and alias checks;
// bufferlog frees the allocation not chosen, under the select condition.
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f32
  %init = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%init : memref<2xf32>)
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (memref<2xf32>) {
    %x = memref.load %acc[%c0] : memref<2xf32>
    %y = arith.addf %x, %one : f32
    %z = arith.addf %y, %one : f32
    %p = memref.alloc() : memref<2xf32>
    linalg.fill ins(%y : f32) outs(%p : memref<2xf32>)
    %q = memref.alloc() : memref<2xf32>
    linalg.fill ins(%z : f32) outs(%q : memref<2xf32>)
    %rem = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %s = arith.select %even, %p, %q : memref<2xf32>
    scf.yield %s : memref<2xf32>
  }
  %u = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
