// RUN: ag-opt %s -ag-gpu-driver-copies | FileCheck %s
// -ag-gpu-driver-copies: a memref.copy marked ag.through_driver (a copy of the caller's
// tensor, which may be in GPU memory) becomes a gpu.memcpy on a stream of its own,
// waited for before anything reads the copy; an unmarked copy (a constant's, host
// memory) stays the host's.

// CHECK-LABEL: func.func @staged
// CHECK-SAME:  (%[[X:.*]]: memref<?xf32>, %[[T:.*]]: memref<4xf32>)
// CHECK:       %[[XC:.*]] = memref.alloc
// CHECK-NEXT:  %[[S:.*]] = gpu.wait async
// CHECK-NEXT:  %[[D:.*]] = gpu.memcpy async [%[[S]]] %[[XC]], %[[X]] : memref<?xf32>, memref<?xf32>
// CHECK-NEXT:  gpu.wait [%[[D]]]
// CHECK-NEXT:  %[[TC:.*]] = memref.alloc
// CHECK-NEXT:  memref.copy %[[T]], %[[TC]] : memref<4xf32> to memref<4xf32>
// CHECK-NOT:   ag.through_driver
// CHECK:       memref.load %[[XC]]
func.func @staged(%x: memref<?xf32>, %t: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %x1 = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  memref.copy %x, %x1 {ag.through_driver} : memref<?xf32> to memref<?xf32>
  %t1 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  memref.copy %t, %t1 : memref<4xf32> to memref<4xf32>
  %v = memref.load %x1[%c0] : memref<?xf32>
  %w = memref.load %t1[%c0] : memref<4xf32>
  %s = arith.addf %v, %w : f32
  memref.dealloc %x1 : memref<?xf32>
  memref.dealloc %t1 : memref<4xf32>
  return %s : f32
}
