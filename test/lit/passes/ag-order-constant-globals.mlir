// RUN: ag-opt --ag-order-constant-globals %s | FileCheck %s
// Bufferization's constant globals, as it left them (their names and order follow heap
// addresses), are numbered and placed in the order of their first use, and located there.

module {
  memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.0, 4.0]> {alignment = 64 : i64} loc("g.py":9:9)
  memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64 : i64} loc("g.py":9:9)
  memref.global "private" @state : memref<i32> = dense<0>
  func.func @f() -> memref<2xf32> {
    %0 = memref.get_global @__constant_2xf32 : memref<2xf32> loc("f.py":1:5)
    return %0 : memref<2xf32>
  }
  func.func @g() -> (memref<2xf32>, memref<2xf32>) {
    %0 = memref.get_global @__constant_2xf32_0 : memref<2xf32> loc("f.py":2:5)
    %1 = memref.get_global @__constant_2xf32 : memref<2xf32> loc("f.py":3:5)
    return %0, %1 : memref<2xf32>, memref<2xf32>
  }
}

// CHECK:      memref.global "private" @state
// CHECK-NEXT: memref.global "private" constant @__constant_0 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-NEXT: memref.global "private" constant @__constant_1 : memref<2xf32> = dense<[3.000000e+00, 4.000000e+00]>
// CHECK:      func.func @f()
// CHECK-NEXT:   memref.get_global @__constant_0
// CHECK:      func.func @g()
// CHECK-NEXT:   memref.get_global @__constant_1
// CHECK-NEXT:   memref.get_global @__constant_0

// RUN: ag-opt --ag-order-constant-globals --mlir-print-debuginfo --mlir-print-local-scope %s | FileCheck %s --check-prefix=LOC
// LOC: @__constant_0 {{.*}} loc("f.py":1:5)
// LOC: @__constant_1 {{.*}} loc("f.py":2:5)
