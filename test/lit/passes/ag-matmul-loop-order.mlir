// RUN: ag-opt %s -ag-matmul-loop-order | FileCheck %s
// RUN: ag-opt %s -ag-matmul-loop-order -convert-linalg-to-loops | FileCheck %s --check-prefix=LOOPS
// RUN: ag-opt %s '-ag-matmul-loop-order=reorder=false' | FileCheck %s --check-prefix=KEEP
// -ag-matmul-loop-order: linalg.matmul and linalg.batch_matmul become linalg.generic with
// the loops ordered (i, k, j), so that the innermost loop walks rows of B and C; float
// products and sums are marked contract (fused multiply-adds where the CPU has FMA).
// reorder=false keeps (i, j, k) and sets the flags only.

// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME: ins(%arg0, %arg1 : memref<4x8xf32>, memref<8x16xf32>) outs(%arg2 : memref<4x16xf32>)
// CHECK: arith.mulf {{.*}} fastmath<contract> : f32
// CHECK: arith.addf {{.*}} fastmath<contract> : f32

// KEEP-LABEL: func.func @matmul
// KEEP: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// KEEP: arith.mulf {{.*}} fastmath<contract> : f32
// KEEP: arith.addf {{.*}} fastmath<contract> : f32

// The loops, outermost first: i (to 4), k (to 8), j (to 16); the inner one reads B[k, j]
// and updates C[i, j].
// LOOPS-LABEL: func.func @matmul
// LOOPS: scf.for %[[I:.*]] = %c0 to %c4
// LOOPS-NEXT: scf.for %[[K:.*]] = %c0 to %c8
// LOOPS-NEXT: scf.for %[[J:.*]] = %c0 to %c16
// LOOPS-NEXT: memref.load %arg0[%[[I]], %[[K]]]
// LOOPS-NEXT: memref.load %arg1[%[[K]], %[[J]]]
// LOOPS-NEXT: memref.load %arg2[%[[I]], %[[J]]]
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// On tensors too, and for a batch: (b, i, k, j).
// CHECK-LABEL: func.func @batch
// CHECK-NOT: linalg.batch_matmul
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK: arith.muli
// CHECK: } -> tensor<2x4x16xi32>
func.func @batch(%a: tensor<2x4x8xi32>, %b: tensor<2x8x16xi32>, %c: tensor<2x4x16xi32>) -> tensor<2x4x16xi32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xi32>, tensor<2x8x16xi32>)
                           outs(%c : tensor<2x4x16xi32>) -> tensor<2x4x16xi32>
  return %r : tensor<2x4x16xi32>
}
