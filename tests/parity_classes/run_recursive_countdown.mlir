// A recursive function writes element n-1 of its argument, calls itself on the written
// tensor, and reads the written tensor after the call; another pair of functions call
// each other. The calls have no summary: each reads and writes its operands.
func.func private @printMemrefF32(memref<*xf32>)

func.func @count(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  } else {
    %k = arith.subi %n, %c1 : index
    %x = tensor.extract %t[%k] : tensor<4xf32>
    %y = arith.addf %x, %one : f32
    %w = tensor.insert %y into %t[%k] : tensor<4xf32>
    %s = func.call @count(%w, %k) : (tensor<4xf32>, index) -> tensor<4xf32>
    %z = tensor.extract %w[%k] : tensor<4xf32>
    %u = arith.addf %z, %z : f32
    %v = tensor.insert %u into %s[%c0] : tensor<4xf32>
    scf.yield %v : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @ping(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> tensor<4xf32> {
    scf.yield %t : tensor<4xf32>
  } else {
    %s = func.call @pong(%t, %n) : (tensor<4xf32>, index) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @pong(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %three = arith.constant 3.0 : f32
  %k = arith.subi %n, %c1 : index
  %w = tensor.insert %three into %t[%k] : tensor<4xf32>
  %s = func.call @ping(%w, %k) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %five = arith.constant 5.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.fill ins(%two : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @count(%a, %c3) : (tensor<4xf32>, index) -> tensor<4xf32>
  %c = func.call @ping(%a, %c2) : (tensor<4xf32>, index) -> tensor<4xf32>
  %d = tensor.insert %five into %c[%c0] : tensor<4xf32>
  %mb = bufferization.to_buffer %b read_only : tensor<4xf32> to memref<4xf32>
  %pb = memref.cast %mb : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pb) : (memref<*xf32>) -> ()
  %md = bufferization.to_buffer %d read_only : tensor<4xf32> to memref<4xf32>
  %pd = memref.cast %md : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pd) : (memref<*xf32>) -> ()
  %ma = bufferization.to_buffer %a read_only : tensor<4xf32> to memref<4xf32>
  %pa = memref.cast %ma : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%pa) : (memref<*xf32>) -> ()
  return
}
