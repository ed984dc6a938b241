// RUN: ag-opt %s -ag-expand-shape-metadata | FileCheck %s
// RUN: ag-opt %s -ag-expand-shape-metadata -expand-strided-metadata | FileCheck %s --check-prefix=UPSTREAM
// -ag-expand-shape-metadata: a memref.expand_shape with several dynamic sizes in one
// group (which MLIR 22's expand-strided-metadata crashes on) becomes the
// memref.reinterpret_cast that pass makes of the others, its sizes output_shape's; the
// others are left to it.

// The strides of @strided_source below, printed at the top.
// CHECK-DAG:   #[[TIMES4:.*]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-DAG:   #[[TIMES4B:.*]] = affine_map<()[s0, s1] -> ((s0 * s1) * 4)>

// CHECK-LABEL: func.func @two_unknowns
// CHECK-SAME:  (%[[M:.*]]: memref<?xi32>, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK:       %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[M]]
// CHECK:       memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[A]], %[[B]]], strides: [%[[B]], 1] : memref<i32> to memref<?x?xi32>
// UPSTREAM-LABEL: func.func @two_unknowns
// UPSTREAM:       memref.reinterpret_cast
func.func @two_unknowns(%m: memref<?xi32>, %a: index, %b: index) -> memref<?x?xi32> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [%a, %b] : memref<?xi32> into memref<?x?xi32>
  return %e : memref<?x?xi32>
}

// Three dimensions from one, of a strided source: the source's stride times the sizes
// after each in the group.
// CHECK-LABEL: func.func @strided_source
// CHECK-SAME:  (%{{.*}}: memref<?xf32, strided<[?], offset: ?>>, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK:       %[[BASE:.*]], %[[OFF:.*]], %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata
// CHECK:       %[[S1:.*]] = affine.apply #[[TIMES4]]()[%[[STRIDE]]]
// CHECK:       %[[S0:.*]] = affine.apply #[[TIMES4B]]()[%[[B]], %[[STRIDE]]]
// CHECK:       memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [%[[A]], %[[B]], 4], strides: [%[[S0]], %[[S1]], %[[STRIDE]]]
func.func @strided_source(%m: memref<?xf32, strided<[?], offset: ?>>, %a: index, %b: index)
    -> memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>> {
  %e = memref.expand_shape %m [[0, 1, 2]] output_shape [%a, %b, 4]
      : memref<?xf32, strided<[?], offset: ?>> into memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>>
  return %e : memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>>
}

// One dynamic size per group: upstream's to fold.
// CHECK-LABEL: func.func @one_unknown
// CHECK:       memref.expand_shape
func.func @one_unknown(%m: memref<?xi32>, %a: index) -> memref<?x4xi32> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [%a, 4] : memref<?xi32> into memref<?x4xi32>
  return %e : memref<?x4xi32>
}
