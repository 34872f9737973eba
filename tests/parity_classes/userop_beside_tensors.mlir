// rules: examples/memrules
// Memref-level test ops (their effects described by the rules of examples/memrules) next
// to tensor code: the analysis decides the tensor operands only; the test ops have none.
func.func @f(%t: tensor<8xf32>, %x: f32, %i: index) -> (tensor<8xf32>, memref<4xf32>, f32) {
  %a = "test.new_buffer"() : () -> memref<4xf32>
  "test.fill"(%x, %a) : (f32, memref<4xf32>) -> ()
  %w = tensor.insert %x into %t[%i] : tensor<8xf32>
  %b = "test.new_buffer"() : () -> memref<4xf32>
  "test.copy"(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  "test.release"(%b) : (memref<4xf32>) -> ()
  %e = tensor.extract %t[%i] : tensor<8xf32>
  return %w, %a, %e : tensor<8xf32>, memref<4xf32>, f32
}
