// memref.realloc with static and dynamic sizes, and an alignment (expand-realloc).
func.func @grow_static_to_dynamic(%n: index) -> memref<?xf32> {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.realloc %a(%n) : memref<2xf32> to memref<?xf32>
  return %b : memref<?xf32>
}
func.func @grow_static(%v: f32) -> memref<4xf32> {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.realloc %a : memref<2xf32> to memref<4xf32>
  return %b : memref<4xf32>
}
func.func @grow_dynamic(%a: memref<?xf32>, %n: index) -> memref<?xf32> {
  %b = memref.realloc %a(%n) {alignment = 8 : i64} : memref<?xf32> to memref<?xf32>
  return %b : memref<?xf32>
}
func.func @dynamic_to_static(%a: memref<?xf32>) -> memref<6xf32> {
  %b = memref.realloc %a : memref<?xf32> to memref<6xf32>
  return %b : memref<6xf32>
}
