// Memref-level program for `bufferlog dealloc`: buffers allocated in the branches of an
// affine.if (yielded, or dropped), in an affine.for body, and read after the loop.
func.func @pick(%n: index, %x: f32) -> memref<4xf32> {
  %r = affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%n) -> memref<4xf32> {
    %a = memref.alloc() : memref<4xf32>
    affine.for %i = 0 to 4 {
      affine.store %x, %a[%i] : memref<4xf32>
    }
    affine.yield %a : memref<4xf32>
  } else {
    %b = memref.alloc() : memref<4xf32>
    %t = memref.alloc() : memref<4xf32>
    affine.for %i = 0 to 4 {
      %c = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
      %f = arith.index_cast %c : index to i32
      %v = arith.sitofp %f : i32 to f32
      affine.store %v, %t[%i] : memref<4xf32>
      %w = affine.load %t[%i] : memref<4xf32>
      affine.store %w, %b[3 - %i] : memref<4xf32>
    }
    affine.yield %b : memref<4xf32>
  }
  return %r : memref<4xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %x = arith.constant 7.0 : f32
  %one = memref.alloc() : memref<1xf32>
  affine.for %k = 0 to 3 {
    %tmp = memref.alloc() : memref<8xf32>
    affine.for %j = 0 to 8 step 3 {
      affine.store %x, %tmp[%j] : memref<8xf32>
    }
    %e = affine.load %tmp[6] : memref<8xf32>
    affine.store %e, %one[0] : memref<1xf32>
  }
  %p = call @pick(%c1, %x) : (index, f32) -> memref<4xf32>
  %q = call @pick(%c3, %x) : (index, f32) -> memref<4xf32>
  %pu = memref.cast %p : memref<4xf32> to memref<*xf32>
  %qu = memref.cast %q : memref<4xf32> to memref<*xf32>
  %ou = memref.cast %one : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  call @printMemrefF32(%qu) : (memref<*xf32>) -> ()
  call @printMemrefF32(%ou) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
